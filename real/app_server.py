"""Starts the real OpenHands app server (openhands-ai) for fakehands' differential suite.

Three things keep its process sandboxes from working on a machine like this one; each is changed
here in memory, at start-up, and nothing installed is edited:

1. Docker detection: a container's /.dockerenv makes the app server rewrite every
   http://localhost:N agent URL to host.docker.internal, which does not resolve outside Docker
   Desktop. The sandboxes here are processes on loopback, so detection answers False.
2. Process status: ProcessSandboxService._get_process_status maps psutil's 'running' to RUNNING,
   'stopped' to PAUSED and anything else to STARTING, so an idle agent server ('sleeping') reads
   STARTING and a start task times out after 120 s. A live, not stopped process reads RUNNING here
   (a real-server bug, declared in src/real/declared.ts).
3. The browser: the app server asks for the browser tool unconditionally, and the agent server then
   refuses to start a conversation without Chromium. Conversations get the default tools without it.

Usage: python app_server.py PORT
"""
import os
import sys

import openhands.app_server.utils.environment as environment

environment.is_running_in_docker = lambda: False

import psutil  # noqa: E402
from openhands.app_server.sandbox import process_sandbox_service  # noqa: E402
from openhands.app_server.sandbox.sandbox_models import SandboxStatus  # noqa: E402


def _status_of_live_process(self, info):
    try:
        process = psutil.Process(info.pid)
        if not process.is_running() or process.status() == psutil.STATUS_ZOMBIE:
            return SandboxStatus.MISSING
        if process.status() == psutil.STATUS_STOPPED:
            return SandboxStatus.PAUSED
        return SandboxStatus.RUNNING
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return SandboxStatus.MISSING


process_sandbox_service.ProcessSandboxService._get_process_status = _status_of_live_process

from openhands.app_server.app_conversation import live_status_app_conversation_service as live  # noqa: E402

_default_tools = live.get_default_tools
live.get_default_tools = lambda enable_browser=True, **kw: _default_tools(enable_browser=False, **kw)
if hasattr(live, "register_builtins_agents"):
    _register = live.register_builtins_agents
    live.register_builtins_agents = lambda enable_browser=True, **kw: _register(enable_browser=False, **kw)

import uvicorn  # noqa: E402

uvicorn.run("openhands.app_server.app:app", host="127.0.0.1", port=int(sys.argv[1]), log_level=os.environ.get("FAKEHANDS_LOG_LEVEL", "warning"))
