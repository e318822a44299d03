// FIX codec speed, in ns per message, beside jspurefix on the same bytes and fields in the same
// run. Two depths of parse, each against jspurefix's counterpart:
//   view:  frame (BodyLength, CheckSum) + tokenize            vs AsciiParser → MsgView (lazy)
//   typed: view + header + typed message (strings, decimals,  vs AsciiParser → MsgView.toObject()
//          timestamps)
// Encode: into the reused writer, then one copy out (what goes to the socket) vs jspurefix's
// AsciiMsgTransmitter encode + trim() (its send path).
// Each timed iteration handles BATCH messages, so the timer's own cost (tens of ns) stays out of
// the figures; median and p99 are over those batches, per message.
//   node dist/bench/fix-codec.bench.js
import { fileURLToPath } from 'node:url';
import { Bench, type Task } from 'tinybench';
import { FixFramer, FrameStatus } from '../src/fix/codec/framer.js';
import { readHeader } from '../src/fix/codec/inbound/header.js';
import { readNewOrderSingle } from '../src/fix/codec/inbound/orders.js';
import { encodeExecutionReport, type ExecutionReportFields } from '../src/fix/codec/outbound/orders.js';
import { FixProblem } from '../src/fix/codec/problem.js';
import { FixReader } from '../src/fix/codec/reader.js';
import { CompIds, FixWriter, type OutboundHeader } from '../src/fix/codec/writer.js';
import { ExecType, MsgType, OrdStatus, OrdType, Side, Tag, TimeInForce } from '../src/fix/dictionary.js';
import { makeJspurefix } from './support/jspurefix.js';

export interface BenchRow {
  readonly name: string;
  /** ns per message (for a ratio row: jspurefix ÷ ours). */
  readonly median: number;
  readonly p99: number;
  readonly opsPerSec: number;
}

const BATCH = 100;
const T0 = Date.UTC(2026, 2, 2, 9, 30, 15, 250);
const CLIENT: OutboundHeader = { compIds: new CompIds('TAS_1001', 'TASGW'), msgSeqNum: 2, sendingTimeMs: T0, origSendingTimeMs: null };
const GATEWAY: OutboundHeader = { compIds: new CompIds('TASGW', 'TAS_1001'), msgSeqNum: 3, sendingTimeMs: T0, origSendingTimeMs: null };

const FILL: ExecutionReportFields = {
  orderId: '880012345', clOrdId: 'cl-20260302-000017', origClOrdId: null, ordStatusReqId: null, execId: 'ex-880012345-1', execType: ExecType.Trade,
  ordStatus: OrdStatus.Filled, ordRejReason: null, account: '1001', symbol: 'EURUSD', side: Side.Buy,
  orderQty: { units: 100_000, scale: 0 }, ordType: OrdType.Limit, price: { units: 108_500, scale: 5 }, stopPx: null,
  timeInForce: TimeInForce.GoodTillCancel, fill: { lastQty: { units: 100_000, scale: 0 }, lastPx: { units: 108_497, scale: 5 } },
  leavesQty: { units: 0, scale: 0 }, cumQty: { units: 100_000, scale: 0 }, avgPx: { units: 108_497, scale: 5 },
  transactTimeMs: T0, text: null,
};

function encodeNewOrderSingle(w: FixWriter): void {
  w.begin(MsgType.NewOrderSingle, CLIENT);
  w.str(Tag.ClOrdID, 'cl-20260302-000017');
  w.str(Tag.Account, '1001');
  w.str(Tag.Symbol, 'EURUSD');
  w.char(Tag.Side, Side.Buy);
  w.utcTimestamp(Tag.TransactTime, T0);
  w.decimal(Tag.OrderQty, { units: 100_000, scale: 0 });
  w.char(Tag.OrdType, OrdType.Limit);
  w.decimal(Tag.Price, { units: 108_500, scale: 5 });
  w.char(Tag.TimeInForce, TimeInForce.GoodTillCancel);
  w.finish();
}

const JSP_NOS = {
  ClOrdID: 'cl-20260302-000017', Account: '1001', Instrument: { Symbol: 'EURUSD' }, Side: '1', TransactTime: new Date(T0),
  OrderQtyData: { OrderQty: 100000 }, OrdType: '2', Price: 1.085, TimeInForce: '1',
};
const JSP_FILL = {
  OrderID: FILL.orderId, ClOrdID: FILL.clOrdId, ExecID: FILL.execId, ExecType: 'F', OrdStatus: '2', Account: '1001',
  Instrument: { Symbol: 'EURUSD' }, Side: '1', OrderQtyData: { OrderQty: 100000 }, OrdType: '2', Price: 1.085, TimeInForce: '1',
  LastQty: 100000, LastPx: 1.08497, LeavesQty: 0, CumQty: 100000, AvgPx: 1.08497, TransactTime: new Date(T0),
};

/** What a client does with an ExecutionReport: the fields a typed reader would hand on. */
function readFill(r: FixReader): object {
  return {
    orderId: r.reqStr(Tag.OrderID), clOrdId: r.reqStr(Tag.ClOrdID), execId: r.reqStr(Tag.ExecID), execType: r.char(Tag.ExecType),
    ordStatus: r.char(Tag.OrdStatus), symbol: r.str(Tag.Symbol), side: r.char(Tag.Side), orderQty: r.decimal(Tag.OrderQty),
    lastQty: r.decimal(Tag.LastQty), lastPx: r.decimal(Tag.LastPx), leavesQty: r.decimal(Tag.LeavesQty), cumQty: r.decimal(Tag.CumQty),
    avgPx: r.decimal(Tag.AvgPx), transactTimeMs: r.utcTimestamp(Tag.TransactTime),
  };
}

function perMessage(task: Task): { median: number; p99: number; opsPerSec: number } {
  const result = task.result;
  if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
  return {
    median: (result.latency.p50 * 1e6) / BATCH,
    p99: (result.latency.p99 * 1e6) / BATCH,
    opsPerSec: result.throughput.mean * BATCH,
  };
}

export async function benchFixCodec(): Promise<BenchRow[]> {
  const w = new FixWriter();
  encodeNewOrderSingle(w);
  const nosBytes = w.flush();
  encodeExecutionReport(w, GATEWAY, FILL);
  const fillBytes = w.flush();
  const jsp = await makeJspurefix('TAS_1001', 'TASGW');
  const framer = new FixFramer({ maxMessageBytes: 64 * 1024 });
  const reader = new FixReader();
  let sink = 0;

  const viewOurs = (bytes: Buffer): void => {
    framer.push(bytes);
    if (framer.next() !== FrameStatus.Message) throw new Error('framer did not find the message');
    reader.parse(framer.bytes, framer.frameStart, framer.frameEnd);
    sink += reader.fieldCount;
  };
  const parseOurs = (bytes: Buffer, read: (r: FixReader) => object): void => {
    viewOurs(bytes);
    const header = readHeader(reader);
    const message = read(reader);
    if (header instanceof FixProblem || message instanceof FixProblem) throw new Error(`unexpected problem ${JSON.stringify(message)}`);
    sink += header.msgSeqNum;
  };
  parseOurs(nosBytes, readNewOrderSingle);
  parseOurs(fillBytes, readFill);
  if (jsp.parse(nosBytes).length !== 1 || jsp.parse(fillBytes).length !== 1) throw new Error('jspurefix does not parse the fixtures');

  const bench = new Bench({ time: 1000, warmupTime: 500, warmupIterations: 2000, timestampProvider: 'hrtimeNow' });
  const batch = (fn: () => void) => () => { for (let i = 0; i < BATCH; i++) fn(); };
  bench
    .add('parse NewOrderSingle view: ours', batch(() => viewOurs(nosBytes)))
    .add('parse NewOrderSingle view: jspurefix', batch(() => jsp.parser.parseBuffer(nosBytes)))
    .add('parse NewOrderSingle typed: ours', batch(() => parseOurs(nosBytes, readNewOrderSingle)))
    .add('parse NewOrderSingle typed: jspurefix', batch(() => { sink += jsp.parse(nosBytes).length; }))
    .add('parse ExecutionReport view: ours', batch(() => viewOurs(fillBytes)))
    .add('parse ExecutionReport view: jspurefix', batch(() => jsp.parser.parseBuffer(fillBytes)))
    .add('parse ExecutionReport typed: ours', batch(() => parseOurs(fillBytes, readFill)))
    .add('parse ExecutionReport typed: jspurefix', batch(() => { sink += jsp.parse(fillBytes).length; }))
    .add('encode NewOrderSingle: ours', batch(() => { encodeNewOrderSingle(w); sink += w.flush().length; }))
    .add('encode NewOrderSingle: jspurefix', batch(() => { sink += jsp.encode('D', JSP_NOS, 2, new Date(T0)).length; }))
    .add('encode ExecutionReport: ours', batch(() => { encodeExecutionReport(w, GATEWAY, FILL); sink += w.flush().length; }))
    .add('encode ExecutionReport: jspurefix', batch(() => { sink += jsp.encode('8', JSP_FILL, 3, new Date(T0)).length; }));
  await bench.run();
  if (sink === 0) throw new Error('benchmark work was optimised away');

  const rows: BenchRow[] = bench.tasks.map((t) => ({ name: `fix ${t.name}`, ...perMessage(t) }));
  const byName = new Map(rows.map((r) => [r.name, r]));
  const compared = [
    'parse NewOrderSingle view', 'parse NewOrderSingle typed', 'parse ExecutionReport view', 'parse ExecutionReport typed',
    'encode NewOrderSingle', 'encode ExecutionReport',
  ];
  for (const what of compared) {
    const ours = byName.get(`fix ${what}: ours`);
    const theirs = byName.get(`fix ${what}: jspurefix`);
    if (!ours || !theirs) continue;
    rows.push({
      name: `fix ${what}: ratio jspurefix ÷ ours`,
      median: theirs.median / ours.median,
      p99: theirs.p99 / ours.p99,
      opsPerSec: ours.opsPerSec / theirs.opsPerSec,
    });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchFixCodec();
  console.table(rows.map((r) => ({
    name: r.name,
    'median (ns/msg | ×)': Number(r.median.toFixed(r.name.includes('ratio') ? 1 : 0)),
    'p99 (ns/msg | ×)': Number(r.p99.toFixed(r.name.includes('ratio') ? 1 : 0)),
    'msg/s (| ×)': Number(r.opsPerSec.toFixed(r.name.includes('ratio') ? 1 : 0)),
  })));
}
