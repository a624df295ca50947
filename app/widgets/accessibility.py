"""Accessibility: names and keyboard paths the page's ready-made widgets lack, added in the browser.

Panel's Player draws icon-only buttons and an unlabelled slider; the code editor (Ace) keeps Tab for indenting.
This invisible component finds them (inside their shadow roots, again whenever one is drawn anew) and gives each
player button a name (its tooltip, on hover and on keyboard focus: see player/controls.py), says which of Play and Pause
is pressed, names the slider and checkboxes, marks the page's landmarks, and turns on Ace's keyboard-accessibility
mode in the editor: Tab reaches the editor, Enter starts editing, Escape stops it, and the next Tab moves on.
A button drawn anew (its label changed) keeps the keyboard's focus.
"""

from __future__ import annotations

import json

import param
from panel.custom import JSComponent

PLAYER_LABELS = {
    "slower": "Slower",
    "first": "First step",
    "previous": "Previous step",
    "reverse": "Play backwards",
    "pause": "Pause",
    "play": "Play",
    "next": "Next step",
    "last": "Last step",
    "faster": "Faster",
}


class Accessibility(JSComponent):
    refresh = param.Integer(default=0, doc="Raised when another program is shown: its widgets get their names")
    _esm = r"""
const LABELS = __LABELS__
const ROLES = [['main', 'main', ''], ['sidebar', 'region', 'Program'], ['page-header', 'banner', '']]

function shadows(root, out) {
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) { out.push(el.shadowRoot); shadows(el.shadowRoot, out) }
  }
  return out
}

function labelPlayer(root) {
  for (const [name, label] of Object.entries(LABELS)) {
    for (const b of root.querySelectorAll(`button.${name}`)) {
      if (b.getAttribute('aria-label') !== label) { b.setAttribute('aria-label', label) }
    }
  }
  for (const r of root.querySelectorAll('input[type=range]')) {
    if (!r.hasAttribute('aria-label')) { r.setAttribute('aria-label', 'Step through the program') }
  }
  for (const b of root.querySelectorAll('button.pause, button.play')) {
    b.setAttribute('aria-pressed', b.style.borderStyle === 'inset' ? 'true' : 'false')
  }
}

function fix(watched) {
  for (const root of shadows(document, [])) {
    const host = root.host
    for (const [css, role, label] of ROLES) {
      if (host.classList.contains(css) && !host.hasAttribute('role')) {
        host.setAttribute('role', role)
        if (label) { host.setAttribute('aria-label', label) }
      }
    }
    for (const box of root.querySelectorAll('input[type=checkbox]:not([aria-label])')) {
      const text = box.nextElementSibling && box.nextElementSibling.textContent.trim()  // Bokeh's label div
      if (text && !box.labels.length) { box.setAttribute('aria-label', text) }
    }
    for (const handle of root.querySelectorAll('.noUi-handle:not([aria-label])')) {  // Bokeh's other sliders
      const title = root.querySelector('.bk-slider-title')
      const text = (title && title.textContent.replace(/[:\s]+$/, '').trim()) || host.getAttribute('aria-label')
      handle.setAttribute('aria-label', text || 'Iteration')
    }
    if (host.classList.contains('stepper')) {
      labelPlayer(root)
      if (!watched.has(root)) {  // the player draws its buttons anew, and presses Play or Pause by their style
        watched.add(root)
        new MutationObserver(() => labelPlayer(root)).observe(root, { subtree: true, childList: true,
          attributes: true, attributeFilter: ['style'] })
      }
    }
    for (const el of root.querySelectorAll('.ace_editor')) {
      const editor = el.env && el.env.editor
      if (editor && !editor.getOption('enableKeyboardAccessibility')) {
        editor.setOption('enableKeyboardAccessibility', true)
        editor.textInput.getElement().setAttribute('aria-label', 'Program (Python). Escape, then Tab, leaves')
      }
    }
  }
}

// Bokeh draws a button anew when its label changes ("Larger canvas" → "Smaller canvas"): the old element
// leaves the page and takes the keyboard's focus with it, to the page's body. The focus goes to the new button
// of the same widget instead, so a keyboard user stays on the control (now named by its new label).
function keepFocus() {
  let watching = null
  return (event) => {
    const el = event.composedPath()[0], root = el.getRootNode()
    if (watching) { watching.disconnect(); watching = null }
    if (!(root instanceof ShadowRoot) || el.tagName !== 'BUTTON') return
    const same = 'button' + [...el.classList].map((c) => '.' + CSS.escape(c)).join('')
    const observer = new MutationObserver(() => {
      if (el.isConnected) return
      observer.disconnect()
      const again = root.querySelector(same)
      const lost = !document.activeElement || document.activeElement === document.body
      if (again && lost) { again.focus() }
    })
    observer.observe(root, { subtree: true, childList: true })
    watching = observer
  }
}

export function render({ model }) {
  const onFocus = keepFocus()
  document.addEventListener('focusin', onFocus, true)
  model.on('remove', () => document.removeEventListener('focusin', onFocus, true))
  const watched = new WeakSet()
  const timers = [0, 200, 800, 2000, 5000].map((ms) => setTimeout(() => fix(watched), ms))
  model.on('remove', () => timers.forEach(clearTimeout))
  model.on('refresh', () => [200, 1000].forEach((ms) => setTimeout(() => fix(watched), ms)))
  return document.createElement('span')
}
""".replace("__LABELS__", json.dumps(PLAYER_LABELS))
