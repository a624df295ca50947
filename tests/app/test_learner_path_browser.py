"""What a learner trips over (issue 26), as the page shows it under `panel serve`: the slider's range after Run,
"last" reaching the end of a training script, the player scrubbing the whole timeline."""

from browser import counter, editor_text, open_app, wait_for

TRAINING = """import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x)

torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
for epoch in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
"""

SLIDER = ".stepper input[type=range]"


def run_program(page, source: str) -> None:
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code)", source)
    wait_for(lambda: editor_text(page) == source)
    page.wait_for_timeout(400)  # the editor's text reaches the server
    before = counter(page)[1]
    page.locator(".run button").click()
    wait_for(lambda: counter(page)[1] != before, 20_000)


def slider(page) -> tuple[int, int, int]:
    return tuple(int(v) for v in page.locator(SLIDER).evaluate("e => [e.min, e.max, e.value]"))


def test_after_run_the_slider_spans_the_new_program_and_last_reaches_its_end(page, url):
    open_app(page, url, "example=mlp-step")
    shown, total = counter(page)
    assert slider(page) == (-1, total - 1, shown - 1)
    run_program(page, TRAINING)
    shown, total = counter(page)
    wait_for(lambda: slider(page) == (-1, total - 1, shown - 1), 3_000)  # not the previous program's range
    page.locator(".stepper button.last").click()
    wait_for(lambda: counter(page)[0] == total, 5_000)  # the end of the whole training script, not of an iteration
    assert "iteration 3 of 3" in page.locator(".iteration-bar .it").inner_text()
    page.locator(SLIDER).evaluate("(e) => { e.value = 5; e.dispatchEvent(new Event('change')) }")
    wait_for(lambda: counter(page)[0] == 6, 5_000)  # the slider reaches back to the start of the program
