"""The web app's pages: plain HTML, CSS and JavaScript served as they are."""
