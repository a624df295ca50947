# Source: rasbt/deeplearning-models pytorch_ipynb/basic-ml/perceptron.ipynb ("Deep Learning Models", Sebastian
#   Raschka, MIT licence): its code cells in order.
# Category: tensors — a perceptron without autograd: weights and bias as torch.zeros, torch.add(torch.mm(...)),
#   a custom_where built from a comparison, the update rule by in-place += of views, and accuracy by torch.sum of a
#   comparison; written for PyTorch 0.4, it meets today's refusal of `1 - bool_tensor`
# Ends with: RuntimeError (Subtraction with a bool tensor is not supported: custom_where's (1-cond))
# Adaptations:
#  - perceptron_toydata.txt (100 two-feature points of two classes) becomes 100 points drawn with
#    np.random.RandomState(123) around (-1, -1) and (1, 1), shuffled and split 70/30 as the notebook does with its
#    own np.random.seed(123) shuffle; the matplotlib plots go.
import numpy as np
import torch

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

##########################
### DATASET
##########################

rng = np.random.RandomState(123)
data = np.vstack([np.hstack([rng.normal(-1, 0.8, (50, 2)), np.zeros((50, 1))]),
                  np.hstack([rng.normal(1, 0.8, (50, 2)), np.ones((50, 1))])])
X, y = data[:, :2], data[:, 2]
y = y.astype(np.int64)

print('Class label counts:', np.bincount(y))
print('X.shape:', X.shape)
print('y.shape:', y.shape)

# Shuffling & train/test split
shuffle_idx = np.arange(y.shape[0])
shuffle_rng = np.random.RandomState(123)
shuffle_rng.shuffle(shuffle_idx)
X, y = X[shuffle_idx], y[shuffle_idx]

X_train, X_test = X[shuffle_idx[:70]], X[shuffle_idx[70:]]
y_train, y_test = y[shuffle_idx[:70]], y[shuffle_idx[70:]]

# Normalize (mean zero, unit variance)
mu, sigma = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mu) / sigma
X_test = (X_test - mu) / sigma

def custom_where(cond, x_1, x_2):
    return (cond * x_1) + ((1-cond) * x_2)


class Perceptron():
    def __init__(self, num_features):
        self.num_features = num_features
        self.weights = torch.zeros(num_features, 1,
                                   dtype=torch.float32, device=device)
        self.bias = torch.zeros(1, dtype=torch.float32, device=device)

    def forward(self, x):
        linear = torch.add(torch.mm(x, self.weights), self.bias)
        predictions = custom_where(linear > 0., 1, 0).float()
        return predictions

    def backward(self, x, y):
        predictions = self.forward(x)
        errors = y - predictions
        return errors

    def train(self, x, y, epochs):
        for e in range(epochs):

            for i in range(y.size()[0]):
                # use view because backward expects a matrix (i.e., 2D tensor)
                errors = self.backward(x[i].view(1, self.num_features), y[i]).view(-1)
                self.weights += (errors * x[i]).view(self.num_features, 1)
                self.bias += errors

    def evaluate(self, x, y):
        predictions = self.forward(x).view(-1)
        accuracy = torch.sum(predictions == y).float() / y.size()[0]
        return accuracy

ppn = Perceptron(num_features=2)

X_train_tensor = torch.tensor(X_train, dtype=torch.float32, device=device)
y_train_tensor = torch.tensor(y_train, dtype=torch.float32, device=device)

ppn.train(X_train_tensor, y_train_tensor, epochs=5)

print('Model parameters:')
print('  Weights: %s' % ppn.weights)
print('  Bias: %s' % ppn.bias)

X_test_tensor = torch.tensor(X_test, dtype=torch.float32, device=device)
y_test_tensor = torch.tensor(y_test, dtype=torch.float32, device=device)

test_acc = ppn.evaluate(X_test_tensor, y_test_tensor)
print('Test set accuracy: %.2f%%' % (test_acc*100))
