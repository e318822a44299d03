// jspurefix (npm) set up with the stock QuickFIX FIX44 dictionary it ships ("qf44"): its encoder
// (AsciiMsgTransmitter, the session's own message path) and its parser (AsciiParser), used as the
// interop counterpart in tests and as the baseline in bench/fix-codec.bench.ts.
import 'reflect-metadata';
import {
  AsciiParser, DITokens, EmptyLogFactory, type IJsFixConfig, type ISessionDescription, type MsgTransmitter,
  type MsgView, SessionContainer, type ElasticBuffer,
} from 'jspurefix';

export interface JspurefixParsed {
  readonly msgType: string;
  /** view.toObject(), taken inside the callback: a MsgView dies when it returns. */
  readonly object: Record<string, unknown>;
}

export interface Jspurefix {
  /** A complete message (header, body, trailer) as jspurefix sends it: BodyLength padded to 7 digits. */
  encode(msgType: string, body: Record<string, unknown>, seqNum: number, sendingTime: Date): Buffer;
  /** Feeds bytes to jspurefix's parser and materialises each message it finds. */
  parse(bytes: Buffer): JspurefixParsed[];
  /** The raw parser, for the benchmark: messages it finds outside parse() are not materialised. */
  readonly parser: AsciiParser;
}

export async function makeJspurefix(senderCompId: string, targetCompId: string): Promise<Jspurefix> {
  const sc = new SessionContainer();
  sc.registerGlobal(new EmptyLogFactory());
  const description = {
    application: { type: 'initiator', name: 'interop', protocol: 'ascii', dictionary: 'qf44', tcp: { host: 'localhost', port: 0 } },
    EncryptMethod: 0, ResetSeqNumFlag: true, HeartBtInt: 30,
    SenderCompId: senderCompId, TargetCompID: targetCompId, BeginString: 'FIX.4.4', BodyLengthChars: 7,
  } as unknown as ISessionDescription;
  const container = await sc.makeSystem(description);
  const config = container.resolve<IJsFixConfig>(DITokens.IJsFixConfig);
  const transmitter = container.resolve<MsgTransmitter & { msgSeqNum: number; time: Date }>(DITokens.MsgTransmitter);
  const parser = new AsciiParser(config, null, container.resolve<ElasticBuffer>(DITokens.ParseBuffer), 160 * 1024);
  let parsed: JspurefixParsed[] | null = null;
  parser.on('msg', (msgType: string, view: MsgView) => parsed?.push({ msgType, object: view.toObject() as Record<string, unknown> }));
  return {
    parser,
    encode(msgType, body, seqNum, sendingTime) {
      transmitter.msgSeqNum = seqNum;
      transmitter.time = sendingTime;
      transmitter.encoder.reset();
      transmitter.encodeMessage(msgType, body);
      // trim() is jspurefix's own send path: a fresh copy of the encoded message.
      return (transmitter.encoder as unknown as { trim(): Buffer }).trim();
    },
    parse(bytes) {
      const found: JspurefixParsed[] = [];
      parsed = found;
      parser.parseBuffer(bytes);
      parsed = null;
      return found;
    },
  };
}
