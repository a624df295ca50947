"""What scripts import of matplotlib besides pyplot (plot_view.py): `matplotlib.use(...)` (the explorer draws in its
own view whatever the backend), `matplotlib.cm` / `plt.cm` colormaps by name (those the explorer draws, given as
`cmap=`), `matplotlib.colors`' conversions of colours, and `matplotlib.animation` and `mpl_toolkits.mplot3d`, which
import but refuse at the call that would draw them (the explorer draws neither animations nor 3D axes)."""
from __future__ import annotations

from .module_views import SafeModule
from .plot_axes import CMAPS
from .plot_colours import CSS4, Colormap, _rgba


def _refusing(runtime, what):
    def call(*args, **kwargs):
        runtime.refuse(what)

    return call


def plot_modules(runtime):
    """The views of matplotlib's modules besides pyplot, by their import names."""
    maps = {name: Colormap(name) for name in CMAPS}

    def get_cmap(name=None, lut=None):
        name = "viridis" if name is None else name
        if isinstance(name, Colormap):
            return name
        if name not in maps:
            runtime.refuse(f"the colormap {name!r} is not drawn in the explorer: it draws {', '.join(CMAPS)}")
        return maps[name]

    def to_rgba(c, alpha=None):
        rgba = _rgba(c)
        if rgba is None:
            raise ValueError(f"Invalid RGBA argument: {c!r}")
        return rgba if alpha is None else (*rgba[:3], float(alpha))

    def to_rgb(c):
        return to_rgba(c)[:3]

    def to_hex(c, keep_alpha=False):
        channels = to_rgba(c) if keep_alpha else to_rgba(c)[:3]
        return "#" + "".join(format(round(v * 255), "02x") for v in channels)

    def is_color_like(c):
        return _rgba(c) is not None

    def use(backend, *, force=True):
        if not isinstance(backend, str):
            raise TypeError("backend must be a str")

    cm = SafeModule("matplotlib.cm", {**maps, "get_cmap": get_cmap})
    colors = SafeModule("matplotlib.colors", {
        "to_rgba": to_rgba, "to_rgb": to_rgb, "to_hex": to_hex, "is_color_like": is_color_like,
        "CSS4_COLORS": dict(CSS4), "Colormap": Colormap,
        **{name: _refusing(runtime, f"matplotlib.colors.{name} is not drawn in the explorer: give cmap= a "
                                    f"colormap's name ({', '.join(CMAPS)}), and vmin= and vmax=")
           for name in ("ListedColormap", "LinearSegmentedColormap", "Normalize", "LogNorm")}})
    animation = SafeModule("matplotlib.animation", {
        name: _refusing(runtime, f"matplotlib.animation.{name}: the explorer draws no animations (draw each frame "
                                 "with plt.plot in a loop: the player steps through them)")
        for name in ("FuncAnimation", "ArtistAnimation", "PillowWriter", "FFMpegWriter")})
    return {"matplotlib.cm": cm, "matplotlib.colors": colors, "matplotlib.animation": animation, "use": use}


def mplot3d_views(runtime, package):
    """`from mpl_toolkits.mplot3d import Axes3D`, as 3D plotting scripts start (the import registers the projection)."""
    mplot3d = SafeModule("mpl_toolkits.mplot3d", {"Axes3D": _refusing(
        runtime, "3D axes (mpl_toolkits.mplot3d) are not drawn in the explorer: it draws 2D axes")})
    return {"mpl_toolkits": SafeModule("mpl_toolkits", {"mplot3d": mplot3d}), "mpl_toolkits.mplot3d": mplot3d}
