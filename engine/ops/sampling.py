"""The draws of torch.distributions that are ops of their own: torch._standard_gamma (Gamma, Chi2, StudentT), with
its reparameterised gradient torch._standard_gamma_grad, and torch._sample_dirichlet (Dirichlet, Beta). The
draws are engine/generator/gamma.py. Also Tensor.cauchy_ (Cauchy, HalfCauchy), torch.poisson (Poisson) and
torch.binomial (Binomial), drawn by engine/generator/counts.py, and Tensor.geometric_ and log_normal_."""
import math

import numpy as np

from .. import generator
from ..generator import counts, draws, gamma
from .random import ZERO, check_generator
from .table import OPS, Spelling, op


def _gen(g):
    return generator.default_generator if g is None else g


def _bind_standard_gamma(self, generator=None):
    check_generator(generator, "_standard_gamma")
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"gamma_cpu\" not implemented for '{self.dtype.type_name}'")
    return OPS["_standard_gamma"], (self,), {"generator": generator}, self.dtype


def _not_implemented(name):
    def vjp(n, g):
        raise RuntimeError(f"the derivative for '{name}' is not implemented.")
    return ("not implemented", vjp)


def _not_implemented_aten(name):
    def vjp(n, g):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return ("not implemented", vjp)


op(
    "_standard_gamma", "StandardGammaBackward0", ("self",),
    lambda a, generator: gamma.standard_gamma(_gen(generator), a),
    ("∂sample/∂α · grad", lambda n, g: g * n["self"]._op("_standard_gamma_grad", n["result"])),
    saves={0: ("self", "result")}, spell=Spelling(function="_standard_gamma"), bind=_bind_standard_gamma)
op("_standard_gamma_grad", "StandardGammaGradBackward0", ("self", "output"), gamma.standard_gamma_grad,
   _not_implemented("_standard_gamma_grad"), _not_implemented("_standard_gamma_grad"),
   spell=Spelling(function="_standard_gamma_grad"))


def _bind_dirichlet(self, generator=None):
    check_generator(generator, "_sample_dirichlet")
    return OPS["_sample_dirichlet"], (self,), {"generator": generator}, self.dtype


op("_sample_dirichlet", "NotImplemented", ("self",), lambda a, generator: gamma.dirichlet(_gen(generator), a),
   _not_implemented("_sample_dirichlet"), spell=Spelling(function="_sample_dirichlet"), bind=_bind_dirichlet)


def _cauchy(gen, like, median, sigma):
    """cauchy_kernel: median + sigma · tan(π · (u − ½)) for a 53-bit uniform u, in double."""
    u = draws.unit(gen, like.size, np.float64)
    values = median + sigma * draws.libm(math.tan, math.pi * (u - 0.5))
    return draws._in_memory_order(like, values.astype(like.dtype))


def _bind_cauchy(self, median=0.0, sigma=1.0, *, generator=None):
    check_generator(generator, "cauchy_")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    if not self.dtype.is_floating_point:
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a floating "
                           f"point but you specified {self.dtype.c_name}")
    return OPS["cauchy"], (self,), {"median": median, "sigma": sigma, "generator": generator}, self.dtype


op("cauchy", "CauchyBackward0", ("self",),
   lambda a, median, sigma, generator: _cauchy(_gen(generator), a, median, sigma), ZERO,
   spell=Spelling(inplace="cauchy_"), bind=_bind_cauchy)
op("_dirichlet_grad", "DirichletGradBackward0", ("x", "alpha", "total"), gamma.dirichlet_grad,
   _not_implemented("_dirichlet_grad"), _not_implemented("_dirichlet_grad"), _not_implemented("_dirichlet_grad"),
   spell=Spelling(function="_dirichlet_grad"))


def _bind_poisson(self, generator=None):
    check_generator(generator, "poisson")
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{self.dtype.type_name}'")
    return OPS["poisson"], (self,), {"generator": generator}, self.dtype


op("poisson", "PoissonBackward0", ("self",), lambda a, generator: counts.poisson(_gen(generator), a), ZERO,
   spell=Spelling(function="poisson"), bind=_bind_poisson)


def _bind_binomial(count, prob, generator=None):
    check_generator(generator, "binomial")
    if not count.dtype.is_floating_point:
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: {count.dtype.type_name}")
    if prob.dtype != count.dtype:
        raise RuntimeError(f"Found dtype {prob.dtype.type_name} but expected {count.dtype.type_name}")
    return OPS["binomial"], (count, prob), {"generator": generator}, count.dtype


op("binomial", "NotImplemented", ("count", "prob"),
   lambda c, p, generator: counts.binomial(_gen(generator), c, p),
   _not_implemented_aten("binomial"), _not_implemented_aten("binomial"),
   spell=Spelling(function="binomial"), bind=_bind_binomial)


def _geometric(gen, like, p):
    """geometric_kernel: ceil(log(u) / log1p(-p)) for a 53-bit uniform u, in double."""
    u = draws.unit(gen, like.size, np.float64)
    values = np.ceil(draws.libm(math.log, u) / math.log1p(-p))
    return draws._in_memory_order(like, values.astype(like.dtype))


def _bind_geometric(self, p, *, generator=None):
    check_generator(generator, "geometric_")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    if self.dtype.name == "bool":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    return OPS["geometric"], (self,), {"p": p, "generator": generator}, self.dtype


op("geometric", "GeometricBackward0", ("self",), lambda a, p, generator: _geometric(_gen(generator), a, p), ZERO,
   spell=Spelling(inplace="geometric_"), bind=_bind_geometric)


def _log_normal(gen, like, mean, std):
    """log_normal_kernel: exp of a Box–Muller normal (the generator's cached second sample first), in double."""
    values = np.exp(draws.box_muller(gen, like.size, mean, std))
    return draws._in_memory_order(like, values.astype(like.dtype))


def _bind_log_normal(self, mean=1.0, std=2.0, *, generator=None):
    check_generator(generator, "log_normal_")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"log_normal_cpu\" not implemented for '{self.dtype.type_name}'")
    return OPS["log_normal"], (self,), {"mean": mean, "std": std, "generator": generator}, self.dtype


op("log_normal", "LogNormalBackward0", ("self",),
   lambda a, mean, std, generator: _log_normal(_gen(generator), a, mean, std), ZERO,
   spell=Spelling(inplace="log_normal_"), bind=_bind_log_normal)
