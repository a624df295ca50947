"""PlayerKnob: keeps the player's knob where its step is, in its range. Panel's player view sets its range input's
min and max only when the value changes (and sets the value before them when it is drawn): a step past 100 (the
input's default max) showed at 100, and after Run the input kept the previous program's range when the step came
before the new range. This asks each player view to set them again once the page is drawn and whenever the
player's range changes."""

from __future__ import annotations

from panel.custom import JSComponent


class PlayerKnob(JSComponent):
    _esm = """
export function render({ model }) {
  const followed = new WeakSet()
  const place = () => {
    for (const view of Bokeh.index.all_views()) {
      if (view.sliderEl == null || typeof view.update_value !== 'function') { continue }
      view.update_value()
      if (!followed.has(view)) {
        followed.add(view)
        const {start, end} = view.model.properties
        view.connect(start.change, () => view.update_value())
        view.connect(end.change, () => view.update_value())
      }
    }
  }
  const timers = [0, 200, 1000].map((ms) => setTimeout(place, ms))
  model.on('remove', () => timers.forEach(clearTimeout))
  return document.createElement('span')
}
"""
