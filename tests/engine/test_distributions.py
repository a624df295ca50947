"""torch.distributions on the engine against torch 2.13: for each distribution, seeded draws (sample and rsample,
with sample shapes), log_prob, entropy, mean, mode, variance, stddev, cdf/icdf, shapes, support, expand and the
printed repr; rsample's gradients; validation errors; kl_divergence and register_kl; the special functions and
the Gamma/Dirichlet samplers underneath. float64 values within 1e-12 relative (lgamma is CPython's, a few ulps from
glibc's), float32 as torch prints them; draws and the generator's state after them are torch's exactly."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, torch

E = load_engine()
pytestmark = pytest.mark.skipif(torch is None, reason="needs the oracle")

F64 = "float64"


def _t(T, v, dtype=None, grad=False):
    return T.tensor(v, dtype=getattr(T, dtype) if dtype else None, requires_grad=grad)


_TRIL = [[1.5, 0., 0.], [0.3, 0.8, 0.], [-0.2, 0.4, 1.1]]
_SPD = [[2., 0.3, -0.1], [0.3, 1.5, 0.2], [-0.1, 0.2, 1.]]

# name -> (T -> (distribution, a value in its support)); float64 parameters need grad (rsample, log_prob grads)
CASES = {
    "Normal": lambda T: (T.distributions.Normal(_t(T, [0.5, -1.0], F64, True), _t(T, [1.5, 0.3], F64, True)),
                         _t(T, [0.1, 0.2], F64)),
    "Normal_f32_numbers": lambda T: (T.distributions.Normal(0.0, 2.0), _t(T, [0.3, -0.2])),
    "Categorical_probs": lambda T: (T.distributions.Categorical(probs=_t(T, [0.2, 0.5, 0.3], F64, True)),
                                    _t(T, 1)),
    "Categorical_logits": lambda T: (T.distributions.Categorical(logits=_t(T, [[1., 2., .5], [.1, .1, 3.]], F64,
                                                                           True)), _t(T, [0, 2])),
    "Bernoulli_probs": lambda T: (T.distributions.Bernoulli(probs=_t(T, [0.3, 0.9], F64, True)),
                                  _t(T, [1., 0.], F64)),
    "Bernoulli_logits": lambda T: (T.distributions.Bernoulli(logits=_t(T, [0.3, -2.])), _t(T, [1., 0.])),
    "Uniform": lambda T: (T.distributions.Uniform(_t(T, [0., 1.], F64, True), _t(T, [2., 5.], F64, True)),
                          _t(T, [1., 2.], F64)),
    "Exponential": lambda T: (T.distributions.Exponential(_t(T, [0.5, 2.], F64, True)), _t(T, [1., 2.], F64)),
    "Laplace": lambda T: (T.distributions.Laplace(_t(T, [0., 1.], F64, True), _t(T, [1., 2.], F64, True)),
                          _t(T, [1., 2.], F64)),
    "LogNormal": lambda T: (T.distributions.LogNormal(_t(T, [0., 1.], F64, True), _t(T, [1., .5], F64, True)),
                            _t(T, [1., 2.], F64)),
    "Gamma": lambda T: (T.distributions.Gamma(_t(T, [0.7, 2.5], F64, True), _t(T, [1.2, 0.4], F64, True)),
                        _t(T, [1., 2.], F64)),
    "Gamma_f32": lambda T: (T.distributions.Gamma(_t(T, [0.7, 2.5, 9.0]), _t(T, [1.2, 0.4, 1.0])),
                            _t(T, [1., 2., 3.])),
    "Beta": lambda T: (T.distributions.Beta(_t(T, [0.7, 2.5, 8.], F64, True), _t(T, [1.2, 0.4, 9.], F64, True)),
                       _t(T, [.3, .6, .5], F64)),
    "Dirichlet": lambda T: (T.distributions.Dirichlet(_t(T, [[0.2, 0.5, 3.], [1., 1., 1.]], F64, True)),
                            _t(T, [0.2, 0.3, 0.5], F64)),
    "OneHotCategorical": lambda T: (T.distributions.OneHotCategorical(probs=_t(T, [0.2, 0.5, 0.3], F64)),
                                    _t(T, [0., 1., 0.], F64)),
    "Independent": lambda T: (T.distributions.Independent(
        T.distributions.Normal(_t(T, [[0.5, -1.0]], F64, True), _t(T, [[1.5, 0.3]], F64, True)), 1),
        _t(T, [0.1, 0.2], F64)),
    "RelaxedBernoulli": lambda T: (T.distributions.RelaxedBernoulli(_t(T, 0.5, F64), probs=_t(T, [.3, .8], F64)),
                                   _t(T, [0.3, 0.6], F64)),
    "RelaxedOneHotCategorical": lambda T: (T.distributions.RelaxedOneHotCategorical(
        _t(T, 0.7, F64), probs=_t(T, [0.2, 0.5, 0.3], F64)), _t(T, [0.2, 0.5, 0.3], F64)),
    "Cauchy": lambda T: (T.distributions.Cauchy(_t(T, [0., 1.], F64), _t(T, [1., 2.], F64)), _t(T, [1., 2.], F64)),
    "HalfNormal": lambda T: (T.distributions.HalfNormal(_t(T, [1., 2.], F64)), _t(T, [1., 2.], F64)),
    "Chi2": lambda T: (T.distributions.Chi2(_t(T, [1., 3.], F64)), _t(T, [1., 2.], F64)),
    "StudentT": lambda T: (T.distributions.StudentT(_t(T, [2., 5.], F64), _t(T, [0., 1.], F64),
                                                    _t(T, [1., 2.], F64)), _t(T, [1., 2.], F64)),
    "Geometric": lambda T: (T.distributions.Geometric(_t(T, [0.3, 0.7], F64)), _t(T, [1., 2.], F64)),
    "Gumbel": lambda T: (T.distributions.Gumbel(_t(T, [0., 1.], F64), _t(T, [1., 2.], F64)), _t(T, [1., 2.], F64)),
    "Transformed_affine_exp": lambda T: (T.distributions.TransformedDistribution(
        T.distributions.Normal(_t(T, [0.], F64), _t(T, [1.], F64)),
        [T.distributions.transforms.AffineTransform(1., 2.), T.distributions.transforms.ExpTransform()]),
        _t(T, [1.5], F64)),
    "Transformed_tanh": lambda T: (T.distributions.TransformedDistribution(
        T.distributions.Normal(_t(T, [0., 1.], F64), _t(T, [1., .5], F64)),
        [T.distributions.transforms.TanhTransform()]),
        _t(T, [0.5, -0.2], F64)),
    "Transformed_sigmoid_power": lambda T: (T.distributions.TransformedDistribution(
        T.distributions.Normal(_t(T, [0.], F64), _t(T, [1.], F64)),
        T.distributions.transforms.ComposeTransform([T.distributions.transforms.SigmoidTransform(),
                                                     T.distributions.transforms.PowerTransform(2.0)])),
        _t(T, [0.25], F64)),
    "Pareto": lambda T: (T.distributions.Pareto(_t(T, [1., 2.], F64), _t(T, [2., 3.], F64)), _t(T, [1.5, 2.5], F64)),
    "Weibull": lambda T: (T.distributions.Weibull(_t(T, [1., 2.], F64), _t(T, [2., 3.], F64)), _t(T, [1.5, 2.5], F64)),
    "Kumaraswamy": lambda T: (T.distributions.Kumaraswamy(_t(T, [1., 2.], F64), _t(T, [2., 3.], F64)),
                              _t(T, [.5, .25], F64)),
    "LogisticNormal": lambda T: (T.distributions.LogisticNormal(_t(T, [0., 1.], F64), _t(T, [1., .5], F64)),
                                 _t(T, [0.2, 0.3, 0.5], F64)),
    "MixtureSameFamily": lambda T: (T.distributions.MixtureSameFamily(
        T.distributions.Categorical(probs=_t(T, [0.3, 0.7], F64)),
        T.distributions.Normal(_t(T, [-1., 2.], F64), _t(T, [1., .5], F64))), _t(T, [0.5], F64)),
    "ContinuousBernoulli": lambda T: (T.distributions.ContinuousBernoulli(probs=_t(T, [0.3, 0.8], F64)),
                                      _t(T, [0.2, 0.9], F64)),
    "InverseGamma": lambda T: (T.distributions.InverseGamma(_t(T, [2., 3.], F64), _t(T, [1., 2.], F64)),
                               _t(T, [0.5, 1.5], F64)),
    "FisherSnedecor": lambda T: (T.distributions.FisherSnedecor(_t(T, [3., 5.], F64), _t(T, [4., 6.], F64)),
                                 _t(T, [0.5, 1.5], F64)),
    "HalfCauchy": lambda T: (T.distributions.HalfCauchy(_t(T, [1., 2.], F64)), _t(T, [1., 2.], F64)),
    "MultivariateNormal_scale_tril": lambda T: (T.distributions.MultivariateNormal(
        _t(T, [[0.5, -1.0, 2.0], [0., 0., 1.]], F64, True), scale_tril=_t(T, _TRIL, F64, True)),
        _t(T, [.1, .2, .3], F64)),
    "MultivariateNormal_covariance": lambda T: (T.distributions.MultivariateNormal(
        _t(T, [0.5, -1.0, 2.0], F64, True), covariance_matrix=_t(T, _SPD, F64, True)), _t(T, [.1, .2, .3], F64)),
    "MultivariateNormal_precision": lambda T: (T.distributions.MultivariateNormal(
        _t(T, [0.5, -1.0, 2.0], F64), precision_matrix=_t(T, _SPD, F64, True)), _t(T, [.1, .2, .3], F64)),
    "MultivariateNormal_f32": lambda T: (T.distributions.MultivariateNormal(T.zeros(2), T.eye(2)), T.ones(2)),
    "LowRankMultivariateNormal": lambda T: (T.distributions.LowRankMultivariateNormal(
        _t(T, [0.5, -1.0, 2.0], F64, True), _t(T, [[1.], [.5], [-.2]], F64, True), _t(T, [1., 2., .5], F64, True)),
        _t(T, [.1, .2, .3], F64)),
    "Poisson": lambda T: (T.distributions.Poisson(_t(T, [0.5, 4., 12., 150.], F64, True)), _t(T, [0., 3., 9., 140.],
                                                                                             F64)),
    "Poisson_f32": lambda T: (T.distributions.Poisson(_t(T, [3., 30.])), _t(T, [2., 25.])),
    "Binomial": lambda T: (T.distributions.Binomial(_t(T, [10., 60., 200.], F64), _t(T, [0.3, 0.4, 0.9], F64, True)),
                           _t(T, [3., 20., 170.], F64)),
    "Binomial_logits_f32": lambda T: (T.distributions.Binomial(5, logits=_t(T, [-1., 2.])), _t(T, [1., 4.])),
}

PROPERTIES = ("repr", "sample", "sample_23", "rsample", "rsample_grads", "log_prob", "log_prob_grads", "entropy",
              "mean", "mode", "variance", "stddev", "cdf", "icdf", "shapes", "support", "expand", "state")


def _grads(T, d, out):
    params = [v for v in vars(d).values() if isinstance(v, T.Tensor) and v.requires_grad and v.grad_fn is None]
    base = getattr(d, "base_dist", None)
    params += [v for v in vars(base).values() if isinstance(v, T.Tensor) and v.requires_grad] if base else []
    if not params or not out.requires_grad:
        return "no grad"
    grads = T.autograd.grad(out.sum(), params, allow_unused=True)
    return [None if g is None else g for g in grads]


def _observe(T, name):
    """What a program may read off the distribution, each as a value or the error it raised."""
    d, v = CASES[name](T)
    T.manual_seed(7)
    probes = {
        "repr": lambda: repr(d),
        "sample": lambda: d.sample(),
        "sample_23": lambda: d.sample((2, 3)),
        "rsample": lambda: d.rsample((2,)),
        "rsample_grads": lambda: _grads(T, d, d.rsample()),
        "log_prob": lambda: d.log_prob(v),
        "log_prob_grads": lambda: _grads(T, d, d.log_prob(v)),
        "entropy": lambda: d.entropy(),
        "mean": lambda: d.mean, "mode": lambda: d.mode, "variance": lambda: d.variance, "stddev": lambda: d.stddev,
        "cdf": lambda: d.cdf(v), "icdf": lambda: d.icdf(v * 0 + 0.25),
        "shapes": lambda: (d.batch_shape, d.event_shape, d.has_rsample),
        "support": lambda: repr(d.support),
        "expand": lambda: repr(d.expand((3,) + tuple(d.batch_shape))),
        "state": lambda: T.rand(2),  # the generator after all the draws above
    }
    out = {}
    for key in PROPERTIES:
        try:
            out[key] = probes[key]()
        except Exception as e:  # noqa: BLE001 - the error is the observation
            out[key] = f"{type(e).__name__}: {e}".replace("torch.distributions.", "").replace(
                "engine.distributions.", "")
    return out


def _same(got, want, where):
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), where
        for g, w in zip(got, want):
            _same(g, w, where)
        return
    if isinstance(want, torch.Tensor):
        assert isinstance(got, E.Tensor), (where, got)
        assert got.dtype.name == str(want.dtype).split(".")[1] and tuple(got.shape) == tuple(want.shape), where
        w, g = want.detach().numpy(), got.detach()._data
        if w.dtype == np.float64:
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-300, err_msg=where)
        else:
            assert str(got.detach()) == str(want.detach()), where
        names = (type(got.grad_fn).__name__ if got.grad_fn else None, type(want.grad_fn).__name__
                 if want.grad_fn else None)
        assert names[0] == names[1], (where, names)
        return
    assert str(got).replace("engine", "torch") == str(want), where


# What the engine does not have: it must say so, not answer
GAPS = {}


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="engine against torch")
@pytest.mark.parametrize("name", sorted(CASES))
def test_distribution(name):
    want, got = _observe(torch, name), _observe(E, name)
    for key in PROPERTIES:
        if (name, key) in GAPS:
            assert got[key] == GAPS[name, key]
            continue
        _same(got[key], want[key], f"{name}.{key}")


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the observation
        return type(e).__name__, str(e).replace("torch.distributions.", "").replace("engine.distributions.", "")
    return None


# torch's validation texts: a parameter outside its constraint, a value outside the support, a wrong-shaped value
ERRORS = {
    "scale_negative": lambda T: T.distributions.Normal(T.tensor([0.]), T.tensor([-1.])),
    "probs_not_simplex": lambda T: T.distributions.Categorical(probs=T.tensor([0.5, -0.1])),
    "probs_and_logits": lambda T: T.distributions.Bernoulli(probs=T.tensor(0.5), logits=T.tensor(0.)),
    "value_outside_support": lambda T: T.distributions.Bernoulli(probs=T.tensor([0.5])).log_prob(T.tensor([0.5])),
    "value_not_tensor": lambda T: T.distributions.Normal(0., 1.).log_prob(0.5),
    "value_shape": lambda T: T.distributions.Normal(T.zeros(2), T.ones(2)).log_prob(T.zeros(3)),
    "uniform_low_high": lambda T: T.distributions.Uniform(T.tensor(2.), T.tensor(1.)),
    "rsample_categorical": lambda T: T.distributions.Categorical(T.tensor([0.5, 0.5])).rsample(),
    "no_validation": lambda T: T.distributions.Normal(T.tensor([0.]), T.tensor([-1.]), validate_args=False)
    .log_prob(T.tensor([1.])),
    "default_validate_args": lambda T: T.distributions.Distribution.set_default_validate_args(2),
    "mvn_not_positive_definite": lambda T: T.distributions.MultivariateNormal(T.zeros(2), T.tensor([[1., 2.],
                                                                                                [2., 1.]])),
    "mvn_two_matrices": lambda T: T.distributions.MultivariateNormal(T.zeros(2), T.eye(2), scale_tril=T.eye(2)),
    "poisson_negative_rate": lambda T: T.distributions.Poisson(T.tensor([-1.])),
    "binomial_value_above_count": lambda T: T.distributions.Binomial(3, T.tensor(.5)).log_prob(T.tensor(4.)),
    "kl_missing": lambda T: T.distributions.kl_divergence(T.distributions.Normal(0., 1.),
                                                          T.distributions.Categorical(T.tensor([0.5, 0.5]))),
}


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="engine against torch")
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_validation_errors(name):
    assert _error(lambda: ERRORS[name](E)) == _error(lambda: ERRORS[name](torch))


def test_validation_can_be_turned_off_for_all():
    for T in (torch, E):
        T.distributions.Distribution.set_default_validate_args(False)
        try:
            d = T.distributions.Normal(T.tensor([0.]), T.tensor([-1.]))
            assert str(d.scale) == "tensor([-1.])"
        finally:
            T.distributions.Distribution.set_default_validate_args(True)


KL_PAIRS = {
    "Normal": lambda T: (T.distributions.Normal(_t(T, [0., 1.], F64, True), _t(T, [1., 2.], F64)),
                         T.distributions.Normal(_t(T, [.5, -1.], F64), _t(T, [.7, 1.5], F64, True))),
    "Categorical": lambda T: (T.distributions.Categorical(logits=_t(T, [1., 2., .5], F64, True)),
                              T.distributions.Categorical(probs=_t(T, [.2, .5, .3], F64))),
    "Bernoulli": lambda T: (T.distributions.Bernoulli(_t(T, [.3, .6], F64, True)),
                            T.distributions.Bernoulli(_t(T, [.5, .5], F64))),
    "Gamma": lambda T: (T.distributions.Gamma(_t(T, [2., 3.], F64, True), _t(T, [1., .5], F64)),
                        T.distributions.Gamma(_t(T, [1., 2.], F64), _t(T, [2., 1.], F64))),
    "Beta": lambda T: (T.distributions.Beta(_t(T, [2.], F64, True), _t(T, [3.], F64)),
                       T.distributions.Beta(_t(T, [1.], F64), _t(T, [1.5], F64))),
    "Dirichlet": lambda T: (T.distributions.Dirichlet(_t(T, [1., 2., 3.], F64, True)),
                            T.distributions.Dirichlet(_t(T, [2., 2., 2.], F64))),
    "Independent_Normal": lambda T: (
        T.distributions.Independent(T.distributions.Normal(_t(T, [0., 1.], F64, True), _t(T, [1., 2.], F64)), 1),
        T.distributions.Independent(T.distributions.Normal(_t(T, [1., 1.], F64), _t(T, [1., 1.], F64)), 1)),
    "Uniform_Normal": lambda T: (T.distributions.Uniform(_t(T, [0.], F64, True), _t(T, [1.], F64)),
                                 T.distributions.Normal(_t(T, [0.], F64), _t(T, [1.], F64))),
    "Exponential_Gamma": lambda T: (T.distributions.Exponential(_t(T, [2.], F64, True)),
                                    T.distributions.Gamma(_t(T, [2.], F64), _t(T, [1.], F64))),
    "Laplace": lambda T: (T.distributions.Laplace(_t(T, [0.], F64, True), _t(T, [1.], F64)),
                          T.distributions.Laplace(_t(T, [1.], F64), _t(T, [2.], F64))),
    "OneHotCategorical": lambda T: (T.distributions.OneHotCategorical(_t(T, [.2, .8], F64, True)),
                                    T.distributions.OneHotCategorical(_t(T, [.5, .5], F64))),
    "MultivariateNormal": lambda T: (
        T.distributions.MultivariateNormal(_t(T, [0., 1., 2.], F64, True), scale_tril=_t(T, _TRIL, F64)),
        T.distributions.MultivariateNormal(_t(T, [[1., 1., 1.]], F64), covariance_matrix=_t(T, _SPD, F64))),
    "LowRank_MultivariateNormal": lambda T: (
        T.distributions.LowRankMultivariateNormal(_t(T, [0., 1., 2.], F64, True), _t(T, [[1.], [.5], [-.2]], F64),
                                                  _t(T, [1., 2., .5], F64)),
        T.distributions.MultivariateNormal(_t(T, [1., 1., 1.], F64), precision_matrix=_t(T, _SPD, F64))),
    "Poisson": lambda T: (T.distributions.Poisson(_t(T, [2., 7.], F64, True)),
                          T.distributions.Poisson(_t(T, [3., 5.], F64))),
    "Binomial": lambda T: (T.distributions.Binomial(10, _t(T, [.2, .7], F64, True)),
                           T.distributions.Binomial(10, _t(T, [.5, .5], F64))),
    "Normal_f32": lambda T: (T.distributions.Normal(T.tensor([0., 1.]), T.tensor([1., 2.])),
                             T.distributions.Normal(T.tensor(0.), T.tensor(1.))),
}


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="engine against torch")
@pytest.mark.parametrize("name", sorted(KL_PAIRS))
def test_kl_divergence(name):
    def observe(T):
        p, q = KL_PAIRS[name](T)
        kl = T.distributions.kl_divergence(p, q)
        leaves = [v for v in (*vars(p).values(), *vars(getattr(p, "base_dist", p)).values())
                  if isinstance(v, T.Tensor) and v.requires_grad and v.grad_fn is None]
        return [kl, *(T.autograd.grad(kl.sum(), leaves[:1]) if leaves else ())]
    _same(observe(E), observe(torch), name)


def test_register_kl():
    """A learner's own KL for a pair: kl_divergence dispatches to it, as torch's registry does."""
    for T in (torch, E):
        class Mine(T.distributions.Normal):
            pass

        @T.distributions.register_kl(Mine, T.distributions.Normal)
        def _kl(p, q, T=T):
            return T.tensor(42.0)

        assert T.distributions.kl_divergence(Mine(0., 1.), T.distributions.Normal(0., 2.)).item() == 42.0


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="engine against torch")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_poisson_and_binomial_samplers(dtype):
    """torch.poisson and torch.binomial, value for value, over both branches of each sampler (Poisson: below and
    from a rate of 10; Binomial: inversion and BTRS, on both sides of p = 0.5), and the generator after them."""
    rates = [0., 0.3, 4., 9.99, 10., 37., 900.] * 6
    rng = np.random.default_rng(0)
    counts, probs = np.floor(rng.uniform(0, 150, 60)), rng.uniform(0, 1, 60)
    probs[:4] = [0., 1., .5, 1e-3]

    def draw(T):
        T.manual_seed(11)
        d = getattr(T, dtype)
        return (T.poisson(T.tensor(rates, dtype=d)), T.binomial(T.tensor(counts, dtype=d), T.tensor(probs, dtype=d)),
                T.rand(3, dtype=d))
    for got, want in zip(draw(E), draw(torch)):
        np.testing.assert_array_equal(got._data, want.numpy())


def test_cholesky_ex_of_a_matrix_that_is_not_positive_definite():
    """LAPACK's partial factor and info (torch.distributions' positive_definite constraint reads the info)."""
    m = np.array([[[2., 1., 0.3, 1.], [1., 0.2, 0.1, 0.5], [0.3, 0.1, 3., 0.], [1., 0.5, 0., 1.]], np.eye(4)])
    got, want = E.linalg.cholesky_ex(E.tensor(m)), torch.linalg.cholesky_ex(torch.tensor(m))
    np.testing.assert_allclose(got.L._data, want.L.numpy(), rtol=1e-12, atol=1e-15)
    assert str(got.info) == str(want.info)
    assert _error(lambda: E.linalg.cholesky_ex(E.tensor(m), check_errors=True)) == _error(
        lambda: torch.linalg.cholesky_ex(torch.tensor(m), check_errors=True))
