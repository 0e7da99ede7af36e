"""Tests of the web app: the JSON API and WebSocket protocol, and the pages in a browser."""
