# Source: yunjey/pytorch-tutorial tutorials/01-basics/pytorch_basics/main.py (Yunjey Choi, MIT licence),
#   stored version at commit 004ebe7.
# Category: autograd basics — scalar leaves and y.backward(), nn.Linear with MSELoss and one SGD step,
#   torch.from_numpy / .numpy(), a Dataset subclass with DataLoader, freezing parameters and replacing a layer,
#   saving and loading a state_dict
# Adaptations:
#  - torch.manual_seed(0) added;
#  - torchvision goes: CIFAR-10 becomes a TensorDataset of 8 random 3x32x32 images with labels drawn by torch,
#    batch_size 64 -> 4, `data_iter.next()` (Python 2) becomes next(data_iter); the custom dataset's __len__
#    stays 0 as in the original, and its DataLoader's shuffle=True becomes False (torch 2.13's RandomSampler
#    refuses an empty dataset: 'num_samples should be a positive integer value');
#  - the pretrained ResNet-18 becomes a small nn.Sequential(conv, pool, flatten) with a `fc` nn.Linear head
#    (named fc as ResNet's), images 64x3x224x224 -> 2x3x8x8;
#  - torch.save/torch.load to 'model.ckpt' / 'params.ckpt' files go to an io.BytesIO (the whole-model pickle
#    becomes the state_dict, as the tutorial recommends).
import io

import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(0)

# ================================================================== #
#                     1. Basic autograd example 1                    #
# ================================================================== #

# Create tensors.
x = torch.tensor(1., requires_grad=True)
w = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)

# Build a computational graph.
y = w * x + b    # y = 2 * x + 3

# Compute gradients.
y.backward()

# Print out the gradients.
print(x.grad)    # x.grad = 2, equivalent to dy/dx[given w,b]
print(w.grad)    # w.grad = 1, equivalent to dy/dw[given x,b]
print(b.grad)    # b.grad = 1, equivalent to dy/db[given w,x]


# ================================================================== #
#                    2. Basic autograd example 2                     #
# ================================================================== #

# Create tensors of shape (10, 3) and (10, 2).
x = torch.randn(10, 3)
y = torch.randn(10, 2)

# Build a fully connected layer.
linear = nn.Linear(3, 2)
print ('w: ', linear.weight)
print ('b: ', linear.bias)

# Build loss function and optimizer.
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(linear.parameters(), lr=0.01)

# Forward pass.
pred = linear(x)

# Compute loss.
loss = criterion(pred, y)
print('loss: ', loss.item())

# Backward pass.
loss.backward()

# Print out the gradients.
print ('dL/dw: ', linear.weight.grad)
print ('dL/db: ', linear.bias.grad)

# 1-step gradient descent.
optimizer.step()

# Print out the loss after 1-step gradient descent.
pred = linear(x)
loss = criterion(pred, y)
print('loss after 1 step optimization: ', loss.item())


# ================================================================== #
#                     3. Loading data from numpy                     #
# ================================================================== #

# Create a numpy array.
x = np.array([[1, 2], [3, 4]])

# Convert the numpy array to a torch tensor.
y = torch.from_numpy(x)

# Convert the torch tensor to a numpy array.
z = y.numpy()
print(y, z.dtype)


# ================================================================== #
#                         4. Input pipeline                           #
# ================================================================== #

train_dataset = torch.utils.data.TensorDataset(torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,)))

# Fetch one data pair (read data from disk).
image, label = train_dataset[0]
print (image.size())
print (label)

# Data loader (this provides queues and threads in a very simple way).
train_loader = torch.utils.data.DataLoader(dataset=train_dataset,
                                           batch_size=4,
                                           shuffle=True)

# When iteration starts, queue and thread start to load data from files.
data_iter = iter(train_loader)

# Mini-batch images and labels.
images, labels = next(data_iter)
print(images.shape, labels)

# Actual usage of the data loader is as below.
for images, labels in train_loader:
    # Training code should be written here.
    pass


# ================================================================== #
#                5. Input pipeline for custom dataset                 #
# ================================================================== #

# You should build your custom dataset as below.
class CustomDataset(torch.utils.data.Dataset):
    def __init__(self):
        pass
    def __getitem__(self, index):
        pass
    def __len__(self):
        # You should change 0 to the total size of your dataset.
        return 0

# You can then use the prebuilt data loader.
custom_dataset = CustomDataset()
train_loader = torch.utils.data.DataLoader(dataset=custom_dataset,
                                           batch_size=64,
                                           shuffle=False)
print(len(train_loader))


# ================================================================== #
#                        6. Pretrained model                         #
# ================================================================== #

resnet = nn.Sequential()
resnet.conv = nn.Conv2d(3, 4, 3, padding=1)
resnet.pool = nn.AdaptiveAvgPool2d(1)
resnet.flat = nn.Flatten()
resnet.fc = nn.Linear(4, 10)

# If you want to finetune only the top layer of the model, set as below.
for param in resnet.parameters():
    param.requires_grad = False

# Replace the top layer for finetuning.
resnet.fc = nn.Linear(resnet.fc.in_features, 100)  # 100 is an example.

# Forward pass.
images = torch.randn(2, 3, 8, 8)
outputs = resnet(images)
print (outputs.size())     # (2, 100)
print(outputs.requires_grad, outputs.grad_fn)


# ================================================================== #
#                      7. Save and load the model                    #
# ================================================================== #

# Save and load only the model parameters (recommended).
buffer = io.BytesIO()
torch.save(resnet.state_dict(), buffer)
buffer.seek(0)
print(resnet.load_state_dict(torch.load(buffer)))
