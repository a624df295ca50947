"""ArrowKeys: counts presses of ← and → anywhere on the page (not while typing in the editor or a field; the
prediction field, once emptied by its guess, steps on), and of Ctrl+. (⌘. on a Mac: Stop), anywhere."""

from __future__ import annotations

import param
from panel.custom import JSComponent


class ArrowKeys(JSComponent):
    left = param.Integer(default=0)
    right = param.Integer(default=0)
    stops = param.Integer(default=0)

    _debounce = 0  # handled at once, not after Panel's 50 ms debounce

    _esm = """
export function render({ model }) {
  const path = (e) => e.composedPath()
  const emptyGuess = (e) => path(e).some((el) => el.classList && el.classList.contains('predict-guess')) &&
    path(e)[0].tagName === 'INPUT' && path(e)[0].value === ''
  const typing = (e) => !emptyGuess(e) && path(e).some((el) => el.classList && (
    el.classList.contains('ace_editor') || (el.tagName === 'INPUT' && el.type !== 'checkbox') ||
    el.tagName === 'TEXTAREA' ||
    el.tagName === 'SELECT'))
  const onKey = (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === '.') { model.stops += 1; e.preventDefault(); return }
    if (e.altKey || e.ctrlKey || e.metaKey || typing(e)) { return }
    if (e.key === 'ArrowLeft') { model.left += 1; e.preventDefault() }
    else if (e.key === 'ArrowRight') { model.right += 1; e.preventDefault() }
  }
  document.addEventListener('keydown', onKey)
  model.on('remove', () => document.removeEventListener('keydown', onKey))
  return document.createElement('span')
}
"""
