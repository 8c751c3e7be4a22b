"""A tiny HTTP server whose responses are cut short: for the truncated-download test.

Every GET answers 200 with a ``Content-Length`` of twice the body it actually sends, then
closes the connection, like a server or proxy dying mid-transfer.

Usage: python truncating_http_server.py PORT
"""

import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

BODY = b"the first half of a file that never finishes\n" * 20


class TruncatingHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(2 * len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", int(sys.argv[1])), TruncatingHandler).serve_forever()
