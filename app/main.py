"""`panel serve app/main.py`: one page per session, from the URL's query (?example=, ?code=, &step=)."""

import panel as pn

from app.page import create
from app.serving import send_without_delay

send_without_delay()
create(dict(pn.state.session_args)).servable(title="Autograd Explorer")
