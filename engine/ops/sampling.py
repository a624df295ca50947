"""The draws of torch.distributions that are ops of their own: torch._standard_gamma (Gamma, Chi2, StudentT), with
its reparameterised gradient torch._standard_gamma_grad, and torch._sample_dirichlet (Dirichlet, Beta). The
draws are engine/generator/gamma.py. Also Tensor.cauchy_ (Cauchy, HalfCauchy), torch.poisson (Poisson) and
torch.binomial (Binomial), drawn by engine/generator/counts.py."""
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
