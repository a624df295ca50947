# Source: rasbt/stat453-deep-learning-ss21 (Sebastian Raschka, STAT 453 "Introduction to Deep Learning", UW-Madison,
#   Spring 2021; course materials shared publicly on GitHub for teaching) L09/code/mlp-softmax-pyscripts/
#   train_model.py with the helpers it imports from L09/mlp-softmax-pyscripts/helper.py (set_all_seeds,
#   set_deterministic, ChunkSampler, get_dataloaders_mnist, compute_accuracy), stored versions at commits b6902dc
#   and 473484c.
# Category: training loops — a Flatten/Linear/Sigmoid/Linear MLP, F.cross_entropy, Adam, a custom
#   torch.utils.data Sampler splitting train and validation, torch.max(logits, 1) accuracy under no_grad,
#   seeding random, numpy and torch (and torch.cuda) together
# Adaptations:
#  - the two files become one program; helper.py's plotting functions and their calls go;
#  - argparse's settings file (YAML), the results directory, logging to a file (`print = logger.info`) and the
#    YAML dump of the results go: SETTINGS becomes a dict (seed 123, batch size 16, 2 epochs, hidden 20, learning
#    rate 0.05, validation fraction 0.25) and the results dict is printed; the time-elapsed lines go (they print
#    wall-clock time); `os.environ["PL_GLOBAL_SEED"] = ...` goes;
#  - `torch.set_deterministic(True)` (removed from PyTorch) becomes its replacement
#    torch.use_deterministic_algorithms(True);
#  - MNIST (torchvision) becomes TensorDatasets of 64 train and 16 test random 1x8x8 "images" with labels drawn by
#    torch; 60000 in the validation split becomes the train set's 64; print every 2 batches instead of 50.
import numpy as np
import random
import torch

from torch.utils.data import sampler
from torch.utils.data import DataLoader


def set_all_seeds(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def set_deterministic():
    if torch.cuda.is_available():
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True)


class ChunkSampler(sampler.Sampler):
    """Samples elements sequentially from some offset.
    Arguments:
        num_samples: # of desired datapoints
        start: offset where we should start selecting from
    """
    def __init__(self, num_samples, start=0):
        self.num_samples = num_samples
        self.start = start

    def __iter__(self):
        return iter(range(self.start, self.start + self.num_samples))

    def __len__(self):
        return self.num_samples


def get_dataloaders_mnist(batch_size, num_workers=0,
                          validation_fraction=None):

    images, labels = torch.rand(64, 1, 8, 8), torch.randint(0, 10, (64,))
    train_dataset = torch.utils.data.TensorDataset(images, labels)

    valid_dataset = torch.utils.data.TensorDataset(images, labels)

    test_dataset = torch.utils.data.TensorDataset(torch.rand(16, 1, 8, 8), torch.randint(0, 10, (16,)))

    if validation_fraction is not None:
        num = int(validation_fraction * 64)
        train_indices = torch.arange(0, 64 - num)
        valid_indices = torch.arange(64 - num, 64)

        train_sampler = ChunkSampler(train_indices.shape[0], 0)
        valid_sampler = ChunkSampler(valid_indices.shape[0],
                                     train_indices.shape[0])

        valid_loader = DataLoader(dataset=valid_dataset,
                                  batch_size=batch_size,
                                  num_workers=num_workers,
                                  sampler=valid_sampler)

        train_loader = DataLoader(dataset=train_dataset,
                                  batch_size=batch_size,
                                  num_workers=num_workers,
                                  sampler=train_sampler)

    else:
        train_loader = DataLoader(dataset=train_dataset,
                                  batch_size=batch_size,
                                  num_workers=num_workers,
                                  shuffle=True)

    test_loader = DataLoader(dataset=test_dataset,
                             batch_size=batch_size,
                             num_workers=num_workers,
                             shuffle=False)

    if validation_fraction is None:
        return train_loader, test_loader
    else:
        return train_loader, valid_loader, test_loader


def compute_accuracy(model, data_loader, device):

    with torch.no_grad():

        correct_pred, num_examples = 0, 0

        for i, (features, targets) in enumerate(data_loader):

            features = features.to(device)
            targets = targets.float().to(device)

            logits = model(features)
            _, predicted_labels = torch.max(logits, 1)

            num_examples += targets.size(0)
            correct_pred += (predicted_labels == targets).sum()
    return correct_pred.float()/num_examples * 100


SETTINGS = {'random seed': 123, 'batch size': 16, 'num workers': 0, 'validation fraction': 0.25,
            'input size': 64, 'hidden layer size': 20, 'num class labels': 10, 'learning rate': 0.05,
            'num epochs': 2}

print(f'PyTorch version: {torch.__version__[:3]}')
if torch.cuda.is_available():
    device = torch.device(f'cuda:{SETTINGS["cuda device"]}')
else:
    device = torch.device('cpu')
print(f'Using {device}')

set_all_seeds(SETTINGS['random seed'])
set_deterministic()

train_loader, valid_loader, test_loader = get_dataloaders_mnist(
    batch_size=SETTINGS['batch size'],
    num_workers=SETTINGS['num workers'],
    validation_fraction=SETTINGS['validation fraction'])


##########################
# ## MODEL
##########################

class MLP(torch.nn.Module):

    def __init__(self, num_features, num_hidden, num_classes):
        super().__init__()

        self.num_classes = num_classes

        self.classifier = torch.nn.Sequential(
            torch.nn.Flatten(),
            torch.nn.Linear(num_features, num_hidden),  # Hidden Layer
            torch.nn.Sigmoid(),
            torch.nn.Linear(num_hidden, num_classes)  # Output layer
        )

    def forward(self, x):
        return self.classifier(x)


model = MLP(num_features=SETTINGS['input size'],
            num_hidden=SETTINGS['hidden layer size'],
            num_classes=SETTINGS['num class labels'])
model.to(device)

optimizer = torch.optim.Adam(model.parameters(), lr=SETTINGS['learning rate'])


minibatch_loss_list, train_acc_list, valid_acc_list = [], [], []
for epoch in range(SETTINGS['num epochs']):

    model.train()
    for batch_idx, (features, targets) in enumerate(train_loader):

        features = features.to(device)
        targets = targets.to(device)

        # ## FORWARD AND BACK PROP
        logits = model(features)
        loss = torch.nn.functional.cross_entropy(logits, targets)
        optimizer.zero_grad()

        loss.backward()

        # ## UPDATE MODEL PARAMETERS
        optimizer.step()

        # ## LOGGING
        minibatch_loss_list.append(loss.item())
        if not batch_idx % 2:
            print(f'Epoch: {epoch+1:03d}/{SETTINGS["num epochs"]:03d} '
                  f'| Batch {batch_idx:04d}/{len(train_loader):04d} '
                  f'| Loss: {loss:.4f}')

    model.eval()
    with torch.no_grad():  # save memory during inference
        train_acc = compute_accuracy(model, train_loader, device=device)
        valid_acc = compute_accuracy(model, valid_loader, device=device)
        print(f'Epoch: {epoch+1:03d}/{SETTINGS["num epochs"]:03d} '
              f'| Train: {train_acc :.2f}% '
              f'| Validation: {valid_acc :.2f}%')
        train_acc_list.append(train_acc.item())
        valid_acc_list.append(valid_acc.item())

test_acc = compute_accuracy(model, test_loader, device=device)
print(f'Test accuracy {test_acc :.2f}%')

results_dict = {'train accuracies': train_acc_list,
                'validation accuracies': valid_acc_list,
                'test accuracy': test_acc.item(),
                'settings': SETTINGS}
print(results_dict)
