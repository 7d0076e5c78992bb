/**
 * A decoder for the messages of PostgreSQL's `pgoutput` plugin (protocol version 1) that Realtime
 * needs: transaction bounds, relations and row changes. Column values stay in Postgres's text form;
 * the database turns them back into typed JSON when it checks who may see them
 * (`realtime.apply_rls`), so no type is ever guessed here.
 * https://www.postgresql.org/docs/17/protocol-logicalrep-message-formats.html
 */

/** A column value: Postgres's text output, or null. json/jsonb values are already parsed. */
export type ColumnValue = string | null | JsonValue;
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type RowValues = Record<string, ColumnValue>;

export interface Relation {
  id: number;
  schema: string;
  table: string;
  columns: { name: string; typeOid: number }[];
}

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface RowChange {
  type: ChangeType;
  relation: Relation;
  /** The new row (INSERT, UPDATE). */
  record: RowValues | null;
  /** The old row (UPDATE, DELETE): complete with `replica identity full`, else the key or nothing. */
  oldRecord: RowValues | null;
}

export type PgoutputMessage =
  | { tag: 'begin'; commitTime: Date; xid: number }
  | { tag: 'commit'; endLsn: bigint }
  | { tag: 'relation'; relation: Relation }
  | { tag: 'change'; change: RowChange }
  | { tag: 'other' };

const jsonTypeOids = new Set([114, 3802]);
// Microseconds between the Unix epoch and Postgres's epoch (2000-01-01).
const postgresEpochMicros = 946_684_800_000_000n;

class Reader {
  private offset = 0;
  constructor(private readonly buffer: Buffer) {}
  byte() {
    return this.buffer.readUInt8(this.offset++);
  }
  int16() {
    const value = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return value;
  }
  int32() {
    const value = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  uint64() {
    const value = this.buffer.readBigUInt64BE(this.offset);
    this.offset += 8;
    return value;
  }
  int64() {
    const value = this.buffer.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }
  cstring() {
    const end = this.buffer.indexOf(0, this.offset);
    const value = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return value;
  }
  text(length: number) {
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}

export class PgoutputDecoder {
  private readonly relations = new Map<number, Relation>();

  decode(buffer: Buffer): PgoutputMessage {
    const reader = new Reader(buffer);
    switch (String.fromCharCode(reader.byte())) {
      case 'B': {
        reader.uint64(); // final LSN of the transaction
        const micros = reader.int64() + postgresEpochMicros;
        const xid = reader.int32() >>> 0;
        return { tag: 'begin', commitTime: new Date(Number(micros / 1000n)), xid };
      }
      case 'C': {
        reader.byte(); // flags
        reader.uint64(); // commit LSN
        return { tag: 'commit', endLsn: reader.uint64() };
      }
      case 'R':
        return { tag: 'relation', relation: this.readRelation(reader) };
      case 'I': {
        const relation = this.relation(reader.int32());
        reader.byte(); // 'N'
        return {
          tag: 'change',
          change: { type: 'INSERT', relation, record: readTuple(reader, relation), oldRecord: null },
        };
      }
      case 'U': {
        const relation = this.relation(reader.int32());
        let kind = String.fromCharCode(reader.byte());
        let oldRecord: RowValues | null = null;
        if (kind === 'K' || kind === 'O') {
          oldRecord = readTuple(reader, relation);
          kind = String.fromCharCode(reader.byte());
        }
        const record = readTuple(reader, relation, oldRecord);
        return { tag: 'change', change: { type: 'UPDATE', relation, record, oldRecord } };
      }
      case 'D': {
        const relation = this.relation(reader.int32());
        reader.byte(); // 'K' (key only) or 'O' (whole old row)
        return {
          tag: 'change',
          change: { type: 'DELETE', relation, record: null, oldRecord: readTuple(reader, relation) },
        };
      }
      default:
        return { tag: 'other' };
    }
  }

  private readRelation(reader: Reader): Relation {
    const id = reader.int32();
    const schema = reader.cstring();
    const table = reader.cstring();
    reader.byte(); // replica identity setting
    const count = reader.int16();
    const columns = Array.from({ length: count }, () => {
      reader.byte(); // flags (part of the key)
      const name = reader.cstring();
      const typeOid = reader.int32();
      reader.int32(); // type modifier
      return { name, typeOid };
    });
    const relation = { id, schema, table, columns };
    this.relations.set(id, relation);
    return relation;
  }

  private relation(id: number): Relation {
    const relation = this.relations.get(id);
    if (!relation) throw new Error(`pgoutput: change for unknown relation ${id}`);
    return relation;
  }
}

/** Reads a tuple; an unchanged TOASTed value is taken from the old row when that is known. */
function readTuple(reader: Reader, relation: Relation, unchangedFrom: RowValues | null = null): RowValues {
  const count = reader.int16();
  const values: RowValues = {};
  for (let index = 0; index < count; index++) {
    const column = relation.columns[index];
    const kind = String.fromCharCode(reader.byte());
    if (!column) throw new Error(`pgoutput: ${relation.table} has no column ${index}`);
    if (kind === 'n') {
      values[column.name] = null;
    } else if (kind === 'u') {
      if (unchangedFrom && column.name in unchangedFrom)
        values[column.name] = unchangedFrom[column.name] ?? null;
    } else {
      const text = reader.text(reader.int32());
      values[column.name] = jsonTypeOids.has(column.typeOid) ? (JSON.parse(text) as JsonValue) : text;
    }
  }
  return values;
}
