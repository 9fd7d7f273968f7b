"""Watching and playing in the browser: replay pages, videos, and a local web table.

* :mod:`mushgym.web.page`: a replay file as one self-contained HTML page (the table's
  picture at every move, the move list in words, step / play / speed controls), from one
  seat's view or with every hand face up; or as a GIF / MP4 (``mushgym replay``).
* :mod:`mushgym.web.server`: ``mushgym serve``, a local web app (Flask) to play any env
  against any agent, browse the replay folder and read the Elo ladders. It is given an
  agent factory by the command line: the library itself never imports the agents.

Flask (the optional ``web`` extra) is imported only by the server. Every page is
rendered on the server from one seat's view (:func:`mushgym.render.draw_state` with that
viewer): what a seat may not see never leaves the server.
"""
