# Source: d2l-ai/d2l-en chapter_preliminaries/autograd.md, exercise 2 ("After running the function for
#   backpropagation, immediately run it again and see what happens."), on the chapter's own first example
#   ("Dive into Deep Learning", §2.5; https://github.com/d2l-ai/d2l-en; sample code MIT-0), commit c613498.
# Category: grad accumulation, retain_graph, retain_grad — backward through a freed graph
# Ends with: an uncaught RuntimeError (as on PyTorch)
# Adaptations: the exercise is written out as code: the chapter's `y = 2 * torch.dot(x, x)` then
#   `y.backward()` twice; the program ends with PyTorch's uncaught RuntimeError.
import torch

x = torch.arange(4.0)
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
y.backward()
print(x.grad)
y.backward()
