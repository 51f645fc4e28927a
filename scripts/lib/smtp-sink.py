"""A real SMTP server on the loopback for the mail tests (aiosmtpd): each message it receives is
written to DIR as NNNN.json (its recipients, headers, plain-text and HTML parts), whole, so that
a reader never sees half a file. It prints the port it listens on, then serves until killed.

    python3 smtp-sink.py DIR [PORT] [refuse]

PORT 0 (the default) takes any free port. With `refuse`, every recipient is refused for good
(550), and each refusal is written as NNNN.refused.
"""

import asyncio
import json
import os
import sys

from aiosmtpd.smtp import SMTP
from email import message_from_bytes
from email import policy


class Sink:
    def __init__(self, folder, refuse):
        self.folder = folder
        self.refuse = refuse
        # A sink started again on the same folder goes on with its numbering.
        self.count = sum(1 for name in os.listdir(folder) if not name.endswith(".part"))

    def _write(self, suffix, data):
        self.count += 1
        path = os.path.join(self.folder, f"{self.count:04}.{suffix}")
        with open(path + ".part", "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        os.rename(path + ".part", path)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            self._write("refused", {"to": address})
            return "550 5.7.1 refused by the test"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content or envelope.content,
                                     policy=policy.default)
        parts = {}
        for kind in ("plain", "html"):
            part = message.get_body(preferencelist=(kind,))
            parts[kind] = part.get_content() if part is not None else None
        self._write("json", {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "headers": [[k, str(v)] for k, v in message.items()],
            "content_type": message.get_content_type(),
            "text": parts["plain"],
            "html": parts["html"],
        })
        return "250 OK"


async def main():
    folder = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    refuse = len(sys.argv) > 3 and sys.argv[3] == "refuse"
    os.makedirs(folder, exist_ok=True)
    sink = Sink(folder, refuse)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(sink), "127.0.0.1", port, reuse_address=True)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.Event().wait()


asyncio.run(main())
