# Source: graykode/nlp-tutorial 1-1.NNLM/NNLM-Torch.py (Tae Hwan Jung, MIT licence), stored version at commit
#   26ae49e.
# Category: nn.Module — Bengio's neural language model from raw nn.Parameters: torch.FloatTensor as a dtype
#   with .type(dtype), Variable, torch.Tensor from a list of numpy one-hot arrays, nn.functional.tanh, torch.mm,
#   CrossEntropyLoss, Adam, .data.max(1, keepdim=True)
# Adaptations:
#  - torch.manual_seed(0) added;
#  - the vocabulary is sorted(set(...)) instead of list(set(...)) (a set of strings is ordered by the process's
#    hash seed);
#  - 5000 epochs become 100, printed every 25 instead of 1000.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable

torch.manual_seed(0)

dtype = torch.FloatTensor

sentences = [ "i like dog", "i love coffee", "i hate milk"]

word_list = " ".join(sentences).split()
word_list = sorted(set(word_list))
word_dict = {w: i for i, w in enumerate(word_list)}
n_class = len(word_dict) # number of Vocabulary

# NNLM Parameter
n_step = 2 # n-1
n_hidden = 2 # h

def make_batch(sentences):
    input_batch = []
    target_batch = []

    for sen in sentences:
        word = sen.split()
        input = [word_dict[n] for n in word[:-1]]
        target = word_dict[word[-1]]

        input_batch.append(np.eye(n_class)[input])
        target_batch.append(target)

    return input_batch, target_batch

# Model
class NNLM(nn.Module):
    def __init__(self):
        super(NNLM, self).__init__()

        self.H = nn.Parameter(torch.randn(n_step * n_class, n_hidden).type(dtype))
        self.d = nn.Parameter(torch.randn(n_hidden).type(dtype))
        self.U = nn.Parameter(torch.randn(n_hidden, n_class).type(dtype))
        self.b = nn.Parameter(torch.randn(n_class).type(dtype))

    def forward(self, X):
        input = X.view(-1, n_step * n_class) # [batch_size, n_step * n_class]
        tanh = nn.functional.tanh(self.d + torch.mm(input, self.H)) # [batch_size, n_hidden]
        output = torch.mm(tanh, self.U) + self.b # [batch_size, n_class]
        return output

model = NNLM()

criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

input_batch, target_batch = make_batch(sentences)
input_batch = Variable(torch.Tensor(input_batch))
target_batch = Variable(torch.LongTensor(target_batch))

# Training
for epoch in range(100):

    optimizer.zero_grad()
    output = model(input_batch)

    # output : [batch_size, n_class], target_batch : [batch_size] (LongTensor, not one-hot)
    loss = criterion(output, target_batch)
    if (epoch + 1)%25 == 0:
        print('Epoch:', '%04d' % (epoch + 1), 'cost =', '{:.6f}'.format(loss))

    loss.backward()
    optimizer.step()

# Predict
predict = model(input_batch).data.max(1, keepdim=True)[1]

# Test
input = [sen.split()[:2] for sen in sentences]
print(input)

output = []
for pre in predict:
    for key, value in word_dict.items():
        if value == pre:
            output.append(key)
print(output)
