"""The web app's server: tables, seats, the live protocol and the pages."""
