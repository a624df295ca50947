# Source: d2l-ai/d2l-en chapter_recurrent-neural-networks/rnn-scratch.md, stored version at commit 6e2f9e1, the
#   PyTorch tab ("Dive into Deep Learning" 0.17, §8.5 Implementation of Recurrent Neural Networks from Scratch, by Zhang, Lipton, Li and
#   Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: training loops — one-hot inputs, an RNN's parameters and step by hand, grad_clipping, predict
# Adaptations:
#  - no download: The Time Machine becomes an inline sentence, its vocabulary the sorted characters and its
#    minibatches random contiguous windows drawn with torch.randint after torch.manual_seed(0) (the book is
#    unseeded); the RNNModelScratch class and get_params, init_rnn_state, rnn, grad_clipping and predict_ch8 are
#    the book's; train_epoch_ch8 becomes a loop of 30 steps printing the perplexity every 10; num_hiddens cut
#    from 512 to 32.
import math
import torch
from torch.nn import functional as F

torch.manual_seed(0)

text = 'the time traveller for so it will be convenient to speak of him was expounding a recondite matter to us'
chars = sorted(set(text))
idx = {c: i for i, c in enumerate(chars)}
corpus = torch.tensor([idx[c] for c in text])
vocab_size = len(chars)
print(F.one_hot(torch.tensor([0, 2]), vocab_size))

X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)

def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01

    # Hidden layer parameters
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    # Output layer parameters
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    # Attach gradients
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params

def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device), )

def rnn(inputs, state, params):
    # Here `inputs` shape: (`num_steps`, `batch_size`, `vocab_size`)
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    # Shape of `X`: (`batch_size`, `vocab_size`)
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)

class RNNModelScratch: #@save
    """A RNN Model implemented from scratch."""
    def __init__(self, vocab_size, num_hiddens, device,
                 get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size, device):
        return self.init_state(batch_size, self.num_hiddens, device)

num_hiddens = 32
device = torch.device('cpu')
net = RNNModelScratch(vocab_size, num_hiddens, device, get_params,
                      init_rnn_state, rnn)
state = net.begin_state(X.shape[0], device)
Y, new_state = net(X % vocab_size, state)
print(Y.shape, len(new_state), new_state[0].shape)

def predict_ch8(prefix, num_preds, net, device):  #@save
    """Generate new characters following the `prefix`."""
    state = net.begin_state(batch_size=1, device=device)
    outputs = [idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:  # Warm-up period
        _, state = net(get_input(), state)
        outputs.append(idx[y])
    for _ in range(num_preds):  # Predict `num_preds` steps
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return ''.join([chars[i] for i in outputs])

print(predict_ch8('time traveller ', 10, net, device))

def grad_clipping(net, theta):  #@save
    """Clip the gradient."""
    params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm

batch_size, num_steps, lr = 4, 8, 1
loss = torch.nn.CrossEntropyLoss()
for step in range(30):
    starts = torch.randint(0, len(corpus) - num_steps - 1, (batch_size,))
    X = torch.stack([corpus[s:s + num_steps] for s in starts])
    Y = torch.stack([corpus[s + 1:s + num_steps + 1] for s in starts])
    state = net.begin_state(batch_size=batch_size, device=device)
    y = Y.T.reshape(-1)
    y_hat, state = net(X, state)
    l = loss(y_hat, y.long()).mean()
    for param in net.params:
        param.grad = None
    l.backward()
    grad_clipping(net, 1)
    with torch.no_grad():
        for param in net.params:
            param -= lr * param.grad
    if (step + 1) % 10 == 0:
        print(f'step {step + 1}, perplexity {math.exp(l.item()):.4f}')
print(predict_ch8('time traveller ', 10, net, device))
