"""`make run` right after a stop: the port probe binds like gunicorn (SO_REUSEADDR), so the
last run's connections in TIME_WAIT do not count as the port being in use; a listener does."""

from __future__ import annotations

import socket

import pytest

from cli.serve import ensure_port_free


def _time_wait_port() -> int:
    """A loopback port with no listener left, only a server-side connection in TIME_WAIT (the
    server closed first, as gunicorn does on Ctrl-C). The listener sets SO_REUSEADDR as
    gunicorn's does; its connections inherit it, which lets a later SO_REUSEADDR bind in."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    served, _ = listener.accept()
    served.close()  # the active close: this side goes to TIME_WAIT
    client.recv(1)
    client.close()
    listener.close()
    return port


def test_port_probe_accepts_a_port_whose_last_server_left_time_wait_sockets():
    port = _time_wait_port()
    # the old probe, a plain bind, is refused while TIME_WAIT lasts
    with socket.socket() as plain, pytest.raises(OSError):
        plain.bind(("127.0.0.1", port))
    ensure_port_free("127.0.0.1", port)


def test_port_probe_refuses_a_port_something_listens_on():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        with pytest.raises(RuntimeError, match="is in use"):
            ensure_port_free("127.0.0.1", listener.getsockname()[1])


def test_a_port_in_use_names_the_port_option_and_the_make_variable():
    """The "in use" error says how to pick another port."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        with pytest.raises(RuntimeError) as refused:
            ensure_port_free("127.0.0.1", port)
    message = str(refused.value)
    assert f"127.0.0.1:{port} is in use" in message
    assert "--port" in message and "make run PORT=" in message
