"""Where the site serves Panel's and BokehJS's files, relative to index.html."""

PANEL_ROOT_URL = "static/panel/"  # Panel's PANEL_CDN_ROOT
BOKEH_URL = "static/bokeh/"
