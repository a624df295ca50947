"""torchvision.models (engine/vision/models) against torchvision 0.28: after the same manual_seed a model holds
the same parameters and buffers (names, shapes, values: torchvision's initialisation, drawn in its order) and
computes the same outputs, with the same grad_fn, and the generator is left where torchvision leaves it; the weight
enums read as torchvision's; `pretrained=` warns as torchvision does; given weights refuse (no network)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from torchvision_truth import models as TM

import engine
from engine.vision import models as EM


@pytest.mark.parametrize(("name", "kwargs"), [("resnet18", {}), ("mobilenet_v2", {"width_mult": 0.35}),
                                              ("mobilenet_v3_small", {"width_mult": 0.5}), ("squeezenet1_1", {})])
def test_a_seeded_model_holds_torchvisions_weights_and_computes_its_outputs(name, kwargs):
    torch.manual_seed(0)
    want = getattr(TM, name)(num_classes=10, **kwargs)
    engine.manual_seed(0)
    got = getattr(EM, name)(num_classes=10, **kwargs)
    want_sd, got_sd = want.state_dict(), got.state_dict()
    assert list(got_sd) == list(want_sd)
    for key in want_sd:
        np.testing.assert_array_equal(got_sd[key].numpy(), want_sd[key].numpy(), err_msg=key)
    assert repr(got) == repr(want)
    x = np.random.default_rng(0).standard_normal((2, 3, 32, 32)).astype(np.float32)
    want.eval()  # (training, the last blocks batch-normalise 2 values a channel: their last bits decide the sign)
    got.eval()
    y, ey = want(torch.tensor(x)), got(engine.tensor(x))
    assert ey.grad_fn.name() == y.grad_fn.name()
    np.testing.assert_allclose(ey.detach().numpy(), y.detach().numpy(), rtol=1e-4, atol=1e-5)
    y.sum().backward()
    ey.sum().backward()
    last = list(dict(want.named_parameters()))[-2]  # the classifier's weight (deeper, batch-normed layers' grads
    # amplify the last bits in which the two sum)
    np.testing.assert_allclose(dict(got.named_parameters())[last].grad.numpy(),
                               dict(want.named_parameters())[last].grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(engine.rand(3).numpy(), torch.rand(3).numpy())


def test_the_weight_enums_read_as_torchvisions():
    for name in ("ResNet18_Weights", "ResNet50_Weights", "ResNeXt101_64X4D_Weights", "VGG16_Weights",
                 "MobileNet_V2_Weights"):
        want, got = getattr(TM, name), getattr(EM, name)
        assert [repr(m) for m in got] == [repr(m) for m in want]
        assert repr(got.DEFAULT) == repr(want.DEFAULT) and str(got.DEFAULT) == str(want.DEFAULT)
        assert got.DEFAULT.url == want.DEFAULT.url
        assert got.DEFAULT.meta["num_params"] == want.DEFAULT.meta["num_params"]
        assert got.verify(f"{name}.DEFAULT") is got.DEFAULT
        for member in want:
            assert repr(getattr(got, member.name).transforms()) == repr(member.transforms())
    torch.manual_seed(0)
    image = torch.rand(3, 250, 240)
    np.testing.assert_allclose(EM.ResNet50_Weights.DEFAULT.transforms()(engine.tensor(image.numpy())).numpy(),
                               TM.ResNet50_Weights.DEFAULT.transforms()(image).numpy(), rtol=0, atol=2e-6)
    with pytest.raises(TypeError) as want_error:
        TM.resnet18(weights=TM.ResNet34_Weights.DEFAULT)
    with pytest.raises(TypeError) as got_error:
        EM.resnet18(weights=EM.ResNet34_Weights.DEFAULT)
    assert str(got_error.value) == str(want_error.value)


def test_pretrained_false_warns_as_torchvision_and_builds_the_random_model():
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        torch.manual_seed(0)
        model = TM.squeezenet1_1(pretrained=False)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        engine.manual_seed(0)
        emodel = EM.squeezenet1_1(pretrained=False)
    assert [(w.category, str(w.message)) for w in got] == [(w.category, str(w.message)) for w in want]
    np.testing.assert_array_equal(emodel.features[0].weight.detach().numpy(),
                                  model.features[0].weight.detach().numpy())


@pytest.mark.parametrize("call", ["resnet18(weights=EM.ResNet18_Weights.DEFAULT)", "resnet50(weights='DEFAULT')",
                                  "vgg16(pretrained=True)", "mobilenet_v2(weights='IMAGENET1K_V2')"])
def test_pretrained_weights_are_refused_before_anything_is_built(call):
    engine.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match=r"pretrained weights \(\w+_Weights\.IMAGENET1K_V\d\) are downloaded "
                                               r"from https://download\.pytorch\.org/models/.*no network"):
            eval("EM." + call)
    np.testing.assert_array_equal(engine.rand(2).numpy(), (torch.manual_seed(0), torch.rand(2))[1].numpy())
