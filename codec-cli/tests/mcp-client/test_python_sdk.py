"""`codec mcp` through the official Python MCP SDK (`mcp` on PyPI, pinned in
requirements.txt): the SDK starts the server over stdio, negotiates, lists
the tools and calls them, and the results are checked with the SDK's own
types.

    CODEC=target/debug/codec python -m unittest codec-cli/tests/mcp-client/test_python_sdk.py

`.ci/run` creates the virtual environment and runs it. Both of the SDK's
ways to connect are exercised: `legacy` (the initialize handshake,
2025-11-25) and `auto` (a `server/discover` probe, then 2026-07-28).
"""

import asyncio
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import jsonschema
from mcp import Client, MCPError, StdioServerParameters
from mcp.types import CallToolResult, ListToolsResult, TextContent

ROOT = Path(__file__).resolve().parents[3]
CODEC = os.environ.get("CODEC", str(ROOT / "target" / "debug" / "codec"))

# Small enough that the markdown fits the mcp codec's default text limit
# (25,000 characters), so the text is the whole rendering.
DOCUMENTS = {
    "github": ROOT / "codec-cli" / "data" / "sample.json",
    "analytics": ROOT / "benches" / "data" / "analytics.json",
    "nested-config": ROOT / "benches" / "data" / "nested-config.json",
}

MODES = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def render_md(path: Path) -> str:
    """`codec render --to md` of a file: what the text block must hold."""
    out = subprocess.run(
        [CODEC, "render", "--to", "md", str(path)], check=True, capture_output=True, text=True
    )
    return out.stdout


def run(coroutine):
    return asyncio.run(coroutine)


class PythonSdkClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp(prefix="codec-mcp-python-"))
        for name, source in DOCUMENTS.items():
            shutil.copy(source, cls.dir / f"{name}.json")
        (cls.dir / "broken.json").write_text('{"a": [1, 2}\n')

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def client(self, mode, directory=None, flags=()):
        args = ["mcp", str(directory or self.dir), *flags]
        server = StdioServerParameters(command=CODEC, args=args)
        return Client(server, mode=mode, read_timeout_seconds=60)

    def test_documents_through_every_mode(self):
        for mode, version in MODES.items():
            with self.subTest(mode=mode):
                run(self.check_documents(mode, version))

    async def check_documents(self, mode, version):
        async with self.client(mode) as client:
            self.assertEqual(client.protocol_version, version)
            self.assertEqual(client.server_info.name, "codec")

            tools = await client.list_tools()
            self.assertIsInstance(tools, ListToolsResult)
            self.assertEqual([t.name for t in tools.tools], ["list", "get"])
            get = tools.tools[1]
            self.assertEqual(
                get.input_schema["properties"]["name"]["enum"],
                ["analytics", "broken", "github", "nested-config"],
            )
            # Every document is an object: the schema says so, unwrapped.
            self.assertEqual(get.output_schema["type"], "object")

            listing = await client.call_tool("list", {})
            self.assertIsInstance(listing, CallToolResult)
            self.assertFalse(listing.is_error)
            rows = {d["name"]: d for d in listing.structured_content["documents"]}
            self.assertEqual(rows["github"], {"name": "github", "rows": 100})
            self.assertIn("invalid JSON", rows["broken"]["error"])
            jsonschema.validate(listing.structured_content, tools.tools[0].output_schema)

            for name, source in DOCUMENTS.items():
                result = await client.call_tool("get", {"name": name})
                self.assertIsInstance(result, CallToolResult)
                self.assertFalse(result.is_error, name)
                self.assertEqual(len(result.content), 1, name)
                block = result.content[0]
                self.assertIsInstance(block, TextContent)
                self.assertEqual(block.text, render_md(source), name)
                document = json.loads(source.read_text())
                self.assertEqual(result.structured_content, document, name)
                # The SDK validated it already; validate it once more here.
                jsonschema.validate(result.structured_content, get.output_schema)

            # A page of rows, in the document's shape.
            page = await client.call_tool("get", {"name": "github", "offset": 98, "limit": 10})
            github = json.loads(DOCUMENTS["github"].read_text())
            self.assertEqual(page.structured_content, {"repositories": github["repositories"][98:]})

            # Tool errors: results with isError and a text for the model.
            missing = await client.call_tool("get", {"name": "nope"})
            self.assertTrue(missing.is_error)
            self.assertEqual(
                missing.content[0].text,
                'no document named "nope"; the documents are: analytics, broken, github, nested-config',
            )
            broken = await client.call_tool("get", {"name": "broken"})
            self.assertTrue(broken.is_error)
            self.assertIn('document "broken" cannot be read: ', broken.content[0].text)
            self.assertIsNone(broken.structured_content)

            # An unknown tool: a JSON-RPC error.
            with self.assertRaises(MCPError) as raised:
                await client.call_tool("delete", {})
            self.assertEqual(raised.exception.code, -32602)
            self.assertEqual(raised.exception.message, "Unknown tool: delete (the tools are list and get)")

    def test_an_array_is_wrapped_for_2025_only(self):
        with tempfile.TemporaryDirectory() as directory:
            Path(directory, "numbers.json").write_text("[1, 2.5, 3]")
            for mode, version in MODES.items():
                with self.subTest(mode=mode):
                    run(self.check_array(mode, version, directory))

    async def check_array(self, mode, version, directory):
        async with self.client(mode, directory) as client:
            tools = await client.list_tools()
            schema = tools.tools[1].output_schema
            result = await client.call_tool("get", {"name": "numbers"})
            self.assertEqual(result.content[0].text, "1, 2.5, 3\n")
            if version == "2025-11-25":
                self.assertEqual(schema["type"], "object")
                self.assertEqual(result.structured_content, {"result": [1, 2.5, 3]})
            else:
                self.assertNotIn("type", schema)
                self.assertEqual(result.structured_content, [1, 2.5, 3])
            jsonschema.validate(result.structured_content, schema)

    def test_notes_page_through_documents_over_the_limit(self):
        """A model that follows the notes of texts cut to the limit reads
        every row once: a table (cut after a row) and rows written as
        sections (cut between rows), in both modes."""
        with tempfile.TemporaryDirectory() as directory:
            nested = [
                {"id": i, "title": f"issue {i}", "user": {"login": f"user{i}", "labels": ["a", "b"]}}
                for i in range(100)
            ]
            Path(directory, "issues.json").write_text(json.dumps({"issues": nested}))
            shutil.copy(DOCUMENTS["github"], Path(directory, "github.json"))
            for mode in MODES:
                with self.subTest(mode=mode):
                    run(self.follow_notes(mode, directory))

    async def follow_notes(self, mode, directory):
        limit = 2500
        async with self.client(mode, directory, ["--mcp-text-limit", f"{limit}chars"]) as client:
            for name in ["github", "issues"]:
                document = json.loads(Path(directory, f"{name}.json").read_text())
                (key, rows), = document.items()
                read, arguments = [], {"name": name}
                for page in range(100):
                    result = await client.call_tool("get", arguments)
                    self.assertFalse(result.is_error, name)
                    text = result.content[0].text
                    self.assertLessEqual(len(text), limit, name)
                    read += result.structured_content[key]
                    call = re.search(r"Call get with (\{.*?\}) for the next rows\.\]$", text)
                    if call is None:
                        self.assertNotIn("[Truncated", text, name)
                        break
                    arguments = json.loads(call.group(1))
                    self.assertEqual(arguments, {"name": name, "offset": len(read)}, text)
                self.assertGreater(page, 2, name)
                self.assertEqual(read, rows, name)


if __name__ == "__main__":
    unittest.main()
