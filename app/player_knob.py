"""PlayerKnob: puts the player's knob where its step is once the page is drawn. Panel's player sets its range
input's value before the input's min and max when it is drawn, so a step past 100 (the input's default max)
showed at 100 until the value changed; this asks each player view to set them again, in the right order."""

from __future__ import annotations

from panel.custom import JSComponent


class PlayerKnob(JSComponent):
    _esm = """
export function render({ model }) {
  const place = () => {
    for (const view of Bokeh.index.all_views()) {
      if (view.sliderEl != null && typeof view.update_value === 'function') { view.update_value() }
    }
  }
  const timers = [0, 200, 1000].map((ms) => setTimeout(place, ms))
  model.on('remove', () => timers.forEach(clearTimeout))
  return document.createElement('span')
}
"""
