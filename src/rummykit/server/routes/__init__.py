"""The web app's routes, by concern: ``pages``, ``tables``, ``seats``, ``transfer``,
``replay``, ``stats`` and ``live`` (the WebSocket); what they share comes through the
dependencies of ``deps``. Each module's ``router`` is included by
:func:`rummykit.server.app.create_app`."""
