# Source: LoniQin/pytorch-style-transfer StyleTransfer.py, StyleLoss.py, ContentLoss.py, Normalization.py
#   (a class around the PyTorch Neural Transfer tutorial), commit cb48fc3.
# Category: optimizers and lr schedulers — neural style transfer: a Sequential rebuilt from a feature extractor's
#   children() with ContentLoss/StyleLoss modules (Gram matrix by view + mm, mse_loss) inserted after named conv
#   layers, sliced after the last loss module, LBFGS on the input image (requires_grad_()) with a closure that
#   clamps .data in place, under torch.autograd.set_detect_anomaly(True); the closure returns
#   content_score + content_score, as the original does
# Adaptations:
#  - written after the four files as one program (the search tool's terms keep their text out of commits): the
#    same classes, calls and printed lines, in other words;
#  - torchvision's pretrained vgg19().features (a download) becomes a small randomly initialised
#    Conv2d/ReLU/MaxPool2d stack of the same layer kinds (5 convs, 3 -> 8 channels), seeded; the two JPEG images
#    (PIL, transforms.Resize/ToTensor) become 1x3x16x16 torch.rand images; the device is the CPU;
#  - step_count 100 -> 6, losses printed every 2 steps instead of 50; show_image, matplotlib and saving go.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super(ContentLoss, self).__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


class StyleLoss(nn.Module):
    def __init__(self, target):
        super(StyleLoss, self).__init__()
        self.target = self.gram_matrix(target).detach()

    def forward(self, input):
        G = self.gram_matrix(input=input)
        self.loss = F.mse_loss(G, self.target)
        return input

    def gram_matrix(self, input):
        a, b, c, d = input.size()
        features = input.view(a * b, c * d)
        G = torch.mm(features, features.t())
        return G.div(a * b * c * d)


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super(Normalization, self).__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


class StyleTransfer(object):
    def __init__(self, style_image, content_image, content_layers=['conv_4'],
                 style_layers=['conv_1', 'conv_2', 'conv_3', 'conv_4', 'conv_5'],
                 step_count=300, style_weight=1000000, content_weight=1, transform_model=None):
        self.style_image = style_image
        self.content_image = content_image
        self.content_layers = content_layers
        self.style_layers = style_layers
        self.step_count = step_count
        self.style_weight = style_weight
        self.content_weight = content_weight
        self.step = 0
        self.transform_model = transform_model
        assert self.style_image.size() == self.content_image.size(), \
            "Style image and content image should have the same size"
        self.input_image = self.content_image.clone()

    def run(self):
        torch.autograd.set_detect_anomaly(True)
        normalization = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        content_losses = []
        style_losses = []
        model = nn.Sequential(normalization)
        i = 0
        transform_model = copy.deepcopy(self.transform_model)
        for layer in transform_model.children():
            if isinstance(layer, nn.Conv2d):
                i += 1
                name = 'conv_{}'.format(i)
            elif isinstance(layer, nn.ReLU):
                name = 'relu_{}'.format(i)
                layer = nn.ReLU(inplace=False)
            elif isinstance(layer, nn.MaxPool2d):
                name = 'pool_{}'.format(i)
            elif isinstance(layer, nn.BatchNorm2d):
                name = 'bn_{}'.format(i)
            else:
                raise RuntimeError('Unrecognized layer: {}'.format(layer.__class__.name))
            model.add_module(name, layer)
            if name in self.content_layers:
                target = model(self.content_image).detach()
                content_loss = ContentLoss(target)
                model.add_module("content_loss_{}".format(i), content_loss)
                content_losses.append(content_loss)
            if name in self.style_layers:
                target = model(self.style_image).detach()
                style_loss = StyleLoss(target)
                model.add_module("style_loss_{}".format(i), style_loss)
                style_losses.append(style_loss)
        for i in range(len(model) - 1, -1, -1):
            if isinstance(model[i], ContentLoss) or isinstance(model[i], StyleLoss):
                break
        model = model[:(i + 1)]
        print(model)

        optimizer = optim.LBFGS([self.input_image.requires_grad_()])
        print('Optimizing..')
        self.step = 0
        while self.step <= self.step_count:
            def closure():
                self.input_image.data.clamp_(0, 1)
                optimizer.zero_grad()
                model(self.input_image)
                style_score = 0
                content_score = 0
                for item in style_losses:
                    style_score += item.loss
                for item in content_losses:
                    content_score += item.loss
                style_score *= self.style_weight
                content_score *= self.content_weight
                loss = style_score + content_score
                loss.backward()
                self.step += 1
                print("run {}".format(self.step))
                if self.step % 2 == 0:
                    print("Style loss: {:4f} Content loss: {:4f}".format(style_score.item(), content_score.item()))
                    print()
                return content_score + content_score
            optimizer.step(closure)
        self.input_image.data.clamp_(0, 1)


features = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True),
    nn.MaxPool2d(2, 2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1),
    nn.ReLU(inplace=True), nn.MaxPool2d(2, 2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True),
).eval()
content = torch.rand(1, 3, 16, 16)
style = torch.rand(1, 3, 16, 16)
transfer = StyleTransfer(style_image=style, content_image=content, step_count=6, transform_model=features)
transfer.run()
print(transfer.input_image.shape, transfer.input_image.mean().item())
torch.autograd.set_detect_anomaly(False)
