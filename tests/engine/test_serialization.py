"""torch.save / torch.load against torch: state_dicts, optimizer states, checkpoints and nested containers round
trip through io.BytesIO exactly (values, dtypes, requires_grad, Parameters, shared tensors), with torch's
weights_only and map_location checks and error texts. The bytes are the engine's own format (not torch's zip)."""
import pytest
from difftest import run_both

import engine

PRELUDE = """import io
import torch
def t(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
torch.manual_seed(0)
"""

ROUND_TRIPS = """model = torch.nn.Sequential(torch.nn.BatchNorm1d(3), torch.nn.Linear(3, 2)).double()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
model(torch.randn(4, 3, dtype=torch.float64))[:, 0].pow(3).sum().backward(); opt.step()
buf = io.BytesIO()
torch.save({"epoch": 3, "model": model.state_dict(), "opt": opt.state_dict(), "loss": 0.25, "inf": float("inf")}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck["epoch"], ck["loss"], ck["inf"], type(ck["model"]).__name__, list(ck["model"]))
print(ck["model"]["1.weight"], ck["model"]["0.num_batches_tracked"], ck["model"]["0.running_var"])
print(ck["opt"])
m2 = torch.nn.Sequential(torch.nn.BatchNorm1d(3), torch.nn.Linear(3, 2)).double()
print(m2.load_state_dict(ck["model"]))
o2 = torch.optim.Adam(m2.parameters(), lr=0.5); o2.load_state_dict(ck["opt"]); print(o2.state_dict()["param_groups"])
x = torch.ones(2, requires_grad=True); y = x * 2
buf = io.BytesIO()
torch.save([x, y, x, torch.nn.Parameter(torch.zeros(2)), torch.tensor([1, 2]), torch.Size([2]), torch.float64,
            torch.device("cpu"), (1, None, True, "s")], buf)
buf.seek(0); r = torch.load(buf, weights_only=True); print(r, r[0] is r[2], r[1].is_leaf, type(r[3]).__name__)
t(lambda: torch.load(io.BytesIO(), weights_only=False))
t(lambda: torch.load(io.BytesIO()))
buf.seek(0); t(lambda: torch.load(buf, map_location="cuda"))
buf.seek(0); t(lambda: torch.load(buf, map_location=torch.device("cpu"))[4])
buf.seek(0); t(lambda: torch.load(buf, map_location="cpu", weights_only=False)[5])
t(lambda: torch.save(torch.ones(1), io.StringIO()))
t(lambda: torch.save(torch.ones(1), 3))
t(lambda: torch.load(3))
buf.seek(0); t(lambda: torch.load(buf, weights_only=True, pickle_module=io))
buf = io.BytesIO()
torch.save(torch.arange(6.).reshape(2, 3).t(), buf)
buf.seek(0)
print(len(buf.getvalue()) > 0, torch.load(buf))
"""


def test_round_trips_and_errors_as_torch():
    want, got = run_both(PRELUDE + ROUND_TRIPS)
    assert got.exc == want.exc
    assert got.stdout == want.stdout


def test_a_path_round_trips_too(tmp_path):
    x = {"w": engine.nn.Parameter(engine.randn(2, 3)), "n": [1, 2.5, float("nan")], "s": engine.Size([4])}
    engine.save(x, tmp_path / "ck.pt")
    y = engine.load(str(tmp_path / "ck.pt"))
    assert engine.equal(y["w"], x["w"]) and isinstance(y["w"], engine.nn.Parameter) and y["s"] == x["s"]
    assert y["n"][:2] == [1, 2.5] and y["n"][2] != y["n"][2]


WHOLE_MODULES = """
import io
import pickle
import torch
import torch.nn as nn
torch.manual_seed(0)
shared = nn.Linear(2, 2)
net = nn.Sequential(shared, nn.BatchNorm1d(2), nn.ReLU(), nn.Sequential(shared, nn.Tanh()))
for obj in (nn.Sequential(nn.Linear(1, 2), nn.Tanh()), net, {"epoch": 3, "model": net, "ids": {1, 2}}):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    try:
        torch.load(buf)
    except pickle.UnpicklingError as e:
        print(type(e).__name__, e)
    buf.seek(0)
    back = torch.load(buf, weights_only=False)
    m = back["model"] if isinstance(back, dict) else back
    before = obj["model"] if isinstance(obj, dict) else obj
    print(type(m), m, m is before, m.training, back["ids"] if isinstance(back, dict) else None)
    print([torch.equal(p, q) and p is not q for p, q in zip(before.parameters(), m.parameters())])
    if len(m) == 4:
        print(m[0] is m[3][0], m(torch.ones(3, 2)))
"""


def test_whole_modules_round_trip_as_torch():
    want, got = run_both(WHOLE_MODULES)
    assert got.exc == want.exc
    assert got.stdout == want.stdout


def test_a_programs_own_module_round_trips_in_its_run():
    """torch pickles a program's class by reference (__main__.Net); the engine finds it by reference too, in the
    process that saved it."""
    import io

    class Net(engine.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = engine.nn.Linear(2, 1)
            self.tag = ("net", 1)

    Net.__module__, Net.__qualname__ = "__main__", "Net"
    buf = io.BytesIO()
    net = Net()
    engine.save(net, buf)
    buf.seek(0)
    with pytest.raises(Exception, match=r"GLOBAL __main__\.Net was not an allowed global"):
        engine.load(buf)
    buf.seek(0)
    back = engine.load(buf, weights_only=False)
    assert type(back) is Net and back.tag == ("net", 1) and engine.equal(back.fc.weight, net.fc.weight)


@pytest.mark.parametrize("obj", ["lambda x: x", "{'a': object()}"])
def test_what_torch_would_pickle_is_refused_when_saved(obj):
    import io
    with pytest.raises(TypeError, match="state_dict"):
        engine.save(eval(obj, {"torch": engine}), io.BytesIO())
