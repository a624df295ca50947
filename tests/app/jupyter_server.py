"""A real Jupyter server for the browser tests: JupyterLab (and Notebook 7, served by the same server) on a free
port with a token, over a temporary notebook directory, no browser, its kernels finding this checkout's packages."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from browser import ARTIFACTS, ROOT, free_port


def notebook(*cells: str) -> str:
    """An nbformat 4 notebook of code cells, as JSON text."""
    return json.dumps({
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [{"cell_type": "code", "id": f"cell{i}", "metadata": {}, "execution_count": None, "outputs": [],
                   "source": source} for i, source in enumerate(cells)],
    })


@contextlib.contextmanager
def jupyter_server(notebooks: dict[str, str]):
    """Serves a directory holding `notebooks` (name -> JSON text); yields (base URL, token). Its settings,
    workspaces and runtime files stay in the temporary directory; the server and its kernels end after."""
    port, token = free_port(), secrets.token_hex(16)
    ARTIFACTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="jupyter-test-") as tmp:
        home = Path(tmp)
        (home / "notebooks").mkdir()
        for name, text in notebooks.items():
            (home / "notebooks" / name).write_text(text)
        config = home / "config"
        config.mkdir()
        # Only what the notebooks need: no language servers, terminals or Panel's own server pages.
        unused = ("jupyter_lsp", "jupyter_server_terminals", "panel.io.jupyter_server_extension")
        (config / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"jpserver_extensions": dict.fromkeys(unused, False)}}))
        news = home / "settings" / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
        log = open(ARTIFACTS / f"jupyter-{port}.log", "w")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1",
               "JUPYTER_CONFIG_DIR": str(config), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
               "IPYTHONDIR": str(home / "ipython")}
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={home / 'notebooks'}",
             f"--LabApp.workspaces_dir={home / 'workspaces'}", f"--LabApp.user_settings_dir={home / 'settings'}",
             "--LabApp.news_url=", "--LabApp.extension_manager=readonly",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             "--LabApp.expose_app_in_browser=True", "--JupyterNotebookApp.expose_app_in_browser=True"],
            cwd=home, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=10).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.time() > deadline:
                        raise RuntimeError(f"jupyter lab did not start; see {log.name}") from None
                    time.sleep(0.2)
            yield base, token
        finally:
            proc.terminate()  # the server shuts its kernels down as it stops
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
            log.close()
