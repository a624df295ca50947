# Source: avandekleut/avandekleut.github.io _posts/2020-05-22-nst.md ("Neural Style Transfer", Alexander Van de
#   Kleut), commit 042437a.
# Category: optimizers and lr schedulers — style transfer by optimizing a noise image with Adam: a feature
#   extractor that keeps each Conv2d's output while iterating over `features`, torch.randn_like(image,
#   device=device).requires_grad_(True), a content loss of summed squared feature differences, Gram matrices
#   (features.view(c, h*w) @ features.T), style and content losses summed over layers and weighted
# Adaptations:
#  - written after the post's code cells (the search tool's terms keep its text out of commits): the same
#    classes, functions and calls, in other words;
#  - torchvision's pretrained vgg19 (a download) becomes a small randomly initialised `features` stack of the
#    same layer kinds (Conv2d/ReLU/MaxPool2d, 6 convs, 3 -> 8 channels), seeded; the two JPEG images and
#    torchvision.transforms (Resize, ToTensor, Normalize, Lambda, ToPILImage) become torch.rand 3x24x24 images
#    normalised by the same means and stds by hand; to_output's min-max scaling is kept, the PIL image goes: its
#    mean and std are printed;
#  - epochs 1000 -> 5; the fits run once each (content layers 0 and 2, style layer 1, then fit()); the loss of
#    the last epoch is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
device = 'cuda:0' if torch.cuda.is_available() else 'cpu'


class Vgg19(nn.Module):
    def __init__(self):
        super(Vgg19, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1),
            nn.ReLU(inplace=True), nn.MaxPool2d(2, 2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2, 2),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1),
            nn.ReLU(inplace=True)).eval().to(device)

    def forward(self, x):
        features = []
        for layer in self.features:
            x = layer(x)
            if isinstance(layer, nn.Conv2d):
                features.append(x)
        return features


MEAN = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)


def to_input(image):
    return ((image - MEAN) / STD).unsqueeze(0).to(device)


def to_output(x):
    x = (x - x.min()) / (x.max() - x.min())
    x = x.squeeze().cpu()
    return f'image {tuple(x.shape)} mean {x.mean().item():.4f} std {x.std().item():.4f}'


def fit_content(model, content_image, content_layer=4, epochs=1000, lr=1e-1):
    content_features = model(content_image)
    img = 1e-1 * torch.randn_like(content_image, device=device)
    img.requires_grad_(True)
    opt = torch.optim.Adam([img], lr=lr)
    for epoch in range(epochs):
        opt.zero_grad()
        features = model(img)
        content = features[content_layer]
        content_target = content_features[content_layer].detach()
        loss = ((content - content_target)**2).sum()
        loss.backward()
        opt.step()
    print('content loss', loss.item())
    return to_output(img)


def gram_matrix(features):
    _, c, h, w = features.size()
    features = features.view(c, h * w)
    return features @ features.T


def fit_style(model, style_image, style_layer=4, epochs=1000, lr=1e-1):
    style_features = model(style_image)
    img = 1e-1 * torch.randn_like(style_image, device=device)
    img.requires_grad_(True)
    opt = torch.optim.Adam([img], lr=lr)
    for epoch in range(epochs):
        opt.zero_grad()
        features = model(img)
        style = gram_matrix(features[style_layer])
        style_target = gram_matrix(style_features[style_layer].detach())
        loss = ((style - style_target)**2).sum()
        loss.backward()
        opt.step()
    print('style loss', loss.item())
    return to_output(img)


def fit(model, style_image, content_image, style_weight=1e-2, content_weight=1e2, style_layers=[0, 1, 2, 3, 4],
        content_layers=[4], epochs=1000, lr=1e-1):
    content_features = model(content_image)
    style_features = model(style_image)
    img = 1e-1 * torch.randn_like(style_image, device=device)
    img.requires_grad_(True)
    opt = torch.optim.Adam([img], lr=lr)
    for epoch in range(epochs):
        opt.zero_grad()
        features = model(img)
        content_loss = 0
        for layer in content_layers:
            content = features[layer]
            content_target = content_features[layer].detach()
            content_loss += ((content - content_target)**2).sum()
        style_loss = 0
        for layer in style_layers:
            style = gram_matrix(features[layer])
            style_target = gram_matrix(style_features[layer]).detach()
            style_loss += ((style - style_target)**2).sum()
        loss = content_weight * content_loss / len(content_layers) \
            + style_weight * style_loss / len(style_layers)
        loss.backward()
        opt.step()
    print('total loss', loss.item())
    return to_output(img)


vgg19 = Vgg19()
content_image = to_input(torch.rand(3, 24, 24))
print(to_output(content_image))
print(fit_content(vgg19, content_image, content_layer=0, epochs=5))
print(fit_content(vgg19, content_image, content_layer=2, epochs=5))
style_image = to_input(torch.rand(3, 24, 24))
print(fit_style(vgg19, style_image, style_layer=1, epochs=5))
print(fit(vgg19, style_image, content_image, epochs=5))
