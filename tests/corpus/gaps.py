"""Corpus programs that do not yet behave as on PyTorch, with why: the tests make them strict xfails (so a fix
shows as XPASS, and the entry must go) and benchmarks/corpus.py tallies them by family.

A reason is "family; family; ...": the families that block the program, the first one first (the first place
its output or its uncaught error departs from PyTorch's). Families are named as in issue 12.
"""
from __future__ import annotations

FLOAT32 = "float32 kernels"

# What the engine (imported as torch) does differently from PyTorch, program by program.
ENGINE_GAPS: dict[str, str] = {
    "karpathy_makemore_backprop_ninja": f"{FLOAT32}: torch's MKL matmul rounds differently from the same sum "
                                        "written by hand (maxdiff 4.66 there), the engine's does not",
    "tutorial_nn_dataloader": f"{FLOAT32}: the loss differs in its 4th decimal (MKL's sgemm order)",
    "tutorial_nn_from_scratch": f"{FLOAT32}: the loss after training differs in its 4th decimal",
    "tutorial_nn_module_refactor": f"{FLOAT32}: the loss differs in its 4th decimal",
    "tutorial_polynomial_custom_function": f"{FLOAT32}: the loss after 200 steps differs by 1 ulp, and grows",
    "d2l_weight_decay": f"{FLOAT32}: a float32 batch loss's sum differs in its last bit (the printed float64 mean "
                        "of them shows it)",
    "d2l_batch_norm_scratch": f"{FLOAT32}: nn.BatchNorm2d's float32 running variance and one normalised value near "
                              "0 differ in their 4th-5th digit from ATen's (its float32 reduction order)",
    "tutorial_nlp_lstm_tagger": f"{FLOAT32}: torch runs a float32 LSTM as oneDNN's fused layer "
                                "(MkldnnRnnLayerBackward0), the engine records ATen's step-by-step graph, values alike",
    "karpathy_gpt_self_attention_trick": f"{FLOAT32}: torch.allclose(xbow, xbow3) is False on torch (an entry near "
                                         "0 differs by 3e-8 between the loop of means and MKL's matmul), True here",
    "gordic_neural_style_transfer": f"{FLOAT32}: LBFGS's strong-Wolfe line search carries each evaluation's float32 "
                                    "difference (torch's conv and bmm kernels round otherwise) into its next step: "
                                    "the 4th evaluation's losses differ in their 4th decimal (torch 8.4777, here "
                                    "8.4778) on AMD EPYC",
    "d2l_attention_scoring": f"{FLOAT32}: a bmm result lies on a rounding boundary of its 5 printed digits: the "
                             "engine's correctly rounded product prints -6.3431e-04, MKL's (AMD EPYC) -6.3432e-04",
    "examples_vae_continuous_bernoulli": f"{FLOAT32}: the loss sums 6272 float32 BCE terms and as many log "
                                         "normalising constants that nearly cancel them (~4300 each way for ~16): "
                                         "torch's and numpy's summation orders differ by ~3e-5 in the loss: "
                                         "the first test loss prints 2.1125 on torch, 2.1124 here",
    "morvan_batch_normalization": f"{FLOAT32}: nn.BatchNorm1d on nearly constant float32 columns (tanh layers with a "
                                  "bias of -0.2): ATen's vectorised batch mean differs from the engine's by an ulp, "
                                  "and x - mean cancels it up to a few ulps of the output (4th decimal of the BN "
                                  "net's test loss after 8 steps: torch 1248.6566, here 1248.6897; float64 alike)",
    "tiny_diffusion_ddpm": f"{FLOAT32}: torch's float32 GELU runs ATen's vectorised erf (an Abramowitz-Stegun "
                           "polynomial with its own exp_u20, up to a few ulps off; 27% of results correctly "
                           "rounded), the engine's is correctly rounded: the sampled points differ in their 8th "
                           "digit (torch -0.20844187, here -0.20844191; float64 alike)",
    "padl_pinn_harmonic_oscillator": f"{FLOAT32}: the physics loss (x'' + 2ζω0·x' + ω0²·x, ω0² ≈ 39.5, from two "
                                     "create_graph grads through three 32-wide Linear+SiLU layers) carries MKL "
                                     "sgemm's float32 rounding (the engine's products are correctly rounded): its "
                                     "6 printed digits differ in the last from the 2nd step (torch 9.67911e-02, "
                                     "here 9.67912e-02; float64 alike)",
    "dlwpt_p1ch6_nn": f"{FLOAT32}: nn.Linear(1, 1) runs MKL's sgemm (kernel picked by shape, a Linear with at most "
                      "10 outputs matches it ~50%): after 600 SGD steps the validation loss prints 4.7878 on torch, "
                      "4.7877 here",
    "llms_ch04_gpt_model": f"{FLOAT32}: nn.Linear(5, 6)'s MKL sgemm rounds otherwise, and the mean of normalised "
                           "outputs (which cancels to ~1e-8) shows it: 9.9341e-09 on torch (and in the book), "
                           "-5.9605e-08 here",
    "udacity_intro_part3_training": f"{FLOAT32}: the grad of nn.Linear(784, 128)'s weight is MKL's sgemm of 64-row "
                                    "batches: a few printed values differ in their 5th digit (-1.1533e-06 on torch, "
                                    "-1.1532e-06 here)",
    "antixk_vanilla_vae": f"{FLOAT32}: Conv2d/ConvTranspose2d/BatchNorm2d in float32 (oneDNN's accumulation order) "
                          "feed Adam, whose step normalises the tiny differences up: the second KLD prints -802.94 on "
                          "torch, -802.9397 here, and the samples differ in their 3rd decimal",
    "tutorial_forward_ad_usage": "forward-mode AD: a tangent computed from primals that require grad is itself "
                                 "differentiable in torch (the jvp prints grad_fn=<SliceBackward0>), the engine's is "
                                 "plain, and a custom Function's jvp is not run (NotImplementedError)",
    "karpathy_normalizing_flows": f"{FLOAT32}: the coupling layers' nn.Linear(1, 8) runs MKL's sgemm, whose float32 "
                                  "rounding differs from the engine's correctly rounded products from the first "
                                  "ActNorm'd batch on: the first NLL prints 129.9566192626953 on torch (AMD EPYC), "
                                  "129.95660400390625 here",
    "shusentang_custom_layer": f"{FLOAT32}: nn.Linear(8, 128)'s MKL sgemm rounds 182 of its 512 outputs otherwise, "
                               "and the mean of the centred outputs (which cancels) shows it: 0.0 on torch, "
                               "7.450580596923828e-09 here",
    "hunkim_pack_pad": f"{FLOAT32}: the packed float32 LSTM's gate matmuls run MKL's sgemm in torch: one output of 75 "
                       "lies on a rounding boundary of its 5 printed digits (-3.8701e-04 on torch, AMD EPYC; "
                       "-3.8700e-04 here)",
    "tutorial_neural_style": f"{FLOAT32}: the style loss is 1e6 times the MSE of gram matrices (torch's MKL mm of "
                             "oneDNN conv features, each rounding otherwise): the first evaluation's prints "
                             "227.20462036132812 on torch (AMD EPYC), 227.20468139648438 here, and LBFGS's line "
                             "search carries it on (5th run: 10.306087 on torch, 10.305879 here)",
    "loniqin_style_transfer": f"{FLOAT32}: the style loss is 1e6 times the MSE of Gram matrices (torch.mm of conv "
                              "features, MKL and oneDNN rounding otherwise): the second evaluation's style loss "
                              "prints 38.060814 on torch (AMD EPYC), 38.060802 here",
    "mbernste_bayesian_regression_vi": f"{FLOAT32}: Normal.log_prob's scale.log() and torch.exp(q_logstd) run MKL "
                                       "VML's float32 log/exp (8% of 250 logs differ by an ulp from the correctly "
                                       "rounded ones): the gradients differ in their last bit from the first step, "
                                       "the final numpy float32 arrays in their 8th digit (-0.26703554 on torch, "
                                       "-0.2670355 here)",
    "grumpybavarian_gan_1d_gaussian": f"{FLOAT32}: the discriminator's nn.Linear(32, 32) on 8-row batches runs MKL's "
                                      "sgemm (172 of 256 outputs round otherwise than the engine's correctly "
                                      "rounded products): the first epoch's mean G loss prints 1.0003056355885096 "
                                      "on torch (AMD EPYC), 1.0003056526184082 here",
    "avandekleut_vae": f"{FLOAT32}: the encoder's nn.Linear(784, 512) runs MKL's sgemm on 16-row batches: the "
                       "latent means differ in their 6th digit after two epochs (-0.03527465 on torch, AMD EPYC, "
                       "-0.0352749 here)",
    "dsgiitr_d2l_custom_layers": f"{FLOAT32}: nn.Linear(8, 128)'s MKL sgemm rounds otherwise, and the mean of the "
                                 "centred outputs (which cancels) shows it: 0. on torch, 7.4506e-09 here (as "
                                 "shusentang_custom_layer, the same book chapter)",
}

# Gaps where torch's own output depends on the CPU (its MKL kernels' order): on another CPU torch may print what
# the engine prints, so these are not strict.
CPU_DEPENDENT = frozenset(["dlwpt_p1ch6_nn", "llms_ch04_gpt_model",
                           "udacity_intro_part3_training", "antixk_vanilla_vae",
                           "karpathy_gpt_self_attention_trick", "d2l_batch_norm_scratch", "d2l_attention_scoring",
                           "tutorial_nn_module_refactor", "gordic_neural_style_transfer", "morvan_batch_normalization",
                           "tiny_diffusion_ddpm", "padl_pinn_harmonic_oscillator", "karpathy_normalizing_flows",
                           "shusentang_custom_layer", "hunkim_pack_pad", "tutorial_neural_style",
                           "loniqin_style_transfer", "mbernste_bayesian_regression_vi",
                           "grumpybavarian_gan_1d_gaussian", "avandekleut_vae",
                           "dsgiitr_d2l_custom_layers"])

# Programs printing full-precision numbers after many float32 training steps, and how many ulps those may be
# from torch's (difftest.printed_alike allows 4): torch's own rounding depends on the CPU and its thread count
# (MKL and ATen's reductions split work by thread), and each step carries the last one's difference forward.
# Measured: 5 ulps on an Intel Xeon (AVX512) with one thread, 1-2 with two; 2 on AMD EPYC (AVX2).
DRIFT_ULPS: dict[str, int] = {
    "docs_lr_scheduler_plateau_onecycle": 8,
    "tutorial_polynomial_nn": 8,
    "tutorial_polynomial_optim": 8,
    "examples_regression": 32,  # 200 SGD steps: 17 ulps on AMD EPYC between torch's MKL and correctly rounded products
}


# What the explorer's runner (engine.trace.run) refuses before running: the guard's allow-list.
GUARD_REFUSES: dict[str, str] = {}

# The runner refuses first, then meets the engine's gaps.
RUNNER_GAPS: dict[str, str] = {
    **ENGINE_GAPS,
    **{slug: "; ".join(r for r in (refusal, ENGINE_GAPS.get(slug)) if r) for slug, refusal in GUARD_REFUSES.items()},
}


def family(reason: str) -> str:
    """The first family a reason names (what comes before its first ':', the detail after it)."""
    return reason.split("; ")[0].split(":")[0]
