/**
 * Answers that never change for an Exposition (tools/list of thousands of tools): serialized
 * once, compressed once for clients that accept gzip, and sent with each request's JSON-RPC id
 * spliced in at the end — `{"jsonrpc":"2.0","result":<cached>,"id":<id>}` (member order means
 * nothing in JSON).
 *
 * The gzip form is the cached head deflated and flushed to a byte boundary, a deflate stream
 * left open; each answer closes it with one final stored block holding `<id>}` and the gzip
 * trailer, whose CRC-32 continues the head's (RFC 1951 §3.2.4, RFC 1952 §2.3). A request costs
 * a few dozen bytes of work instead of compressing megabytes.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";
import type { JsonRpcId } from "./protocol.ts";

/** Smaller answers go uncompressed: gzip would save the client less than it costs. */
export const MIN_GZIP_BYTES = 1024;

/** ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED_BLOCK = 0xffff;

export interface SerializedAnswer {
  /** The body, in the order to write it. */
  chunks: Buffer[];
  length: number;
  gzip: boolean;
}

export class SerializedResult {
  readonly json: string;
  private head: Buffer | undefined;
  private gzipHead: { bytes: Buffer; crc: number } | undefined;

  constructor(json: string) {
    this.json = json;
  }

  /** The whole JSON-RPC answer for `id`; gzip-encoded when the client accepts it and it is worth it. */
  answer(id: JsonRpcId, acceptsGzip: boolean): SerializedAnswer {
    const head = this.headBytes();
    const tail = Buffer.from(`${JSON.stringify(id)}}`);
    if (!acceptsGzip || head.length < MIN_GZIP_BYTES) {
      return { chunks: [head, tail], length: head.length + tail.length, gzip: false };
    }
    this.gzipHead ??= {
      bytes: Buffer.concat([GZIP_HEADER, deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH })]),
      crc: crc32(head),
    };
    const blocks = storedBlocks(tail);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tail, this.gzipHead.crc), 0);
    trailer.writeUInt32LE((head.length + tail.length) % 2 ** 32, 4);
    const chunks = [this.gzipHead.bytes, blocks, trailer];
    return { chunks, length: this.gzipHead.bytes.length + blocks.length + 8, gzip: true };
  }

  private headBytes(): Buffer {
    this.head ??= Buffer.from(`{"jsonrpc":"2.0","result":${this.json},"id":`);
    return this.head;
  }
}

/** `data` as stored (uncompressed) deflate blocks, the last one final; starts on a byte boundary. */
function storedBlocks(data: Buffer): Buffer {
  const count = Math.max(1, Math.ceil(data.length / MAX_STORED_BLOCK));
  const out = Buffer.alloc(count * 5 + data.length);
  let at = 0;
  for (let block = 0; block < count; block++) {
    const piece = data.subarray(block * MAX_STORED_BLOCK, (block + 1) * MAX_STORED_BLOCK);
    out[at] = block === count - 1 ? 1 : 0; // BFINAL, BTYPE=00 (stored), padding to the byte boundary
    out.writeUInt16LE(piece.length, at + 1);
    out.writeUInt16LE(piece.length ^ 0xffff, at + 3);
    piece.copy(out, at + 5);
    at += 5 + piece.length;
  }
  return out;
}
