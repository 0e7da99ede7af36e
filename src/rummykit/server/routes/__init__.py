"""The web app's routes, by concern: ``pages``, ``tables``, ``seats``, ``transfer``,
``replay``, ``stats`` and ``live`` (the WebSocket); what they share comes through the
dependencies of ``deps``. Each module's ``router`` is included by
:func:`rummykit.server.app.create_app`.

The server's own limits (``MAX_MESSAGE``, ``MAX_OPEN_TABLES``, ``HELLO_WAIT``...) are
:mod:`rummykit.server.app`'s: a route reads them from there at each use (the module is
imported as ``conf``), so that they may be tuned once the app is made. Only modules are
imported between the two, never names, so either may be imported first."""
