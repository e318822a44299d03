// FIX 4.4 tags and enumerations, named once. Numbers and values are those of the stock QuickFIX
// FIX44.xml (test/fix/dictionary.test.ts checks every entry against it); the enumerations hold the
// complete FIX44 value sets for the fields the gateway reads, so an inbound value outside them is
// "value incorrect" (373=5) while a valid value the gateway does not support reaches the gateway.

export type ValueOf<T> = T[keyof T];

export const Tag = {
  // StandardHeader / StandardTrailer
  BeginString: 8, BodyLength: 9, MsgType: 35, SenderCompID: 49, TargetCompID: 56,
  OnBehalfOfCompID: 115, DeliverToCompID: 128, SecureDataLen: 90, SecureData: 91, MsgSeqNum: 34,
  SenderSubID: 50, SenderLocationID: 142, TargetSubID: 57, TargetLocationID: 143,
  OnBehalfOfSubID: 116, OnBehalfOfLocationID: 144, DeliverToSubID: 129, DeliverToLocationID: 145,
  PossDupFlag: 43, PossResend: 97, SendingTime: 52, OrigSendingTime: 122, XmlDataLen: 212,
  XmlData: 213, MessageEncoding: 347, LastMsgSeqNumProcessed: 369, NoHops: 627, HopCompID: 628,
  HopSendingTime: 629, HopRefID: 630,
  SignatureLength: 93, Signature: 89, CheckSum: 10,
  // Session messages
  EncryptMethod: 98, HeartBtInt: 108, RawDataLength: 95, RawData: 96, ResetSeqNumFlag: 141,
  NextExpectedMsgSeqNum: 789, Username: 553, Password: 554, TestReqID: 112, BeginSeqNo: 7,
  EndSeqNo: 16, RefSeqNum: 45, RefTagID: 371, RefMsgType: 372, SessionRejectReason: 373, Text: 58,
  EncodedTextLen: 354, EncodedText: 355, GapFillFlag: 123, NewSeqNo: 36,
  // Orders and executions
  Account: 1, AccountType: 581, ClOrdID: 11, OrigClOrdID: 41, OrderID: 37, ExecID: 17,
  ExecType: 150, OrdStatus: 39, OrdRejReason: 103, HandlInst: 21, Symbol: 55, Currency: 15, Side: 54,
  LocateReqd: 114, TransactTime: 60, OrderQty: 38, OrdType: 40, Price: 44, StopPx: 99,
  TimeInForce: 59, ExpireTime: 126, LastQty: 32, LastPx: 31, LeavesQty: 151, CumQty: 14, AvgPx: 6,
  CxlRejResponseTo: 434, CxlRejReason: 102, BusinessRejectRefID: 379, BusinessRejectReason: 380,
  // Market data
  MDReqID: 262, SubscriptionRequestType: 263, MarketDepth: 264, MDUpdateType: 265,
  AggregatedBook: 266, NoMDEntryTypes: 267, NoRelatedSym: 146, NoMDEntries: 268, MDEntryType: 269,
  MDEntryPx: 270, MDEntrySize: 271, MDReqRejReason: 281,
  // Positions
  PosReqID: 710, PosReqType: 724, ClearingBusinessDate: 715, NoPartyIDs: 453, PartyID: 448,
  PartyIDSource: 447, PartyRole: 452, NoPartySubIDs: 802, PartySubID: 523, PartySubIDType: 803,
  PosMaintRptID: 721, TotalNumPosReports: 727, UnsolicitedIndicator: 325, PosReqResult: 728,
  PosReqStatus: 729, SettlPrice: 730, SettlPriceType: 731, PriorSettlPrice: 734, NoPositions: 702,
  PosType: 703, LongQty: 704, ShortQty: 705, NoPosAmt: 753, PosAmtType: 707, PosAmt: 708,
  // Order status and mass cancel
  OrdStatusReqID: 790, MassCancelRequestType: 530, MassCancelResponse: 531, MassCancelRejectReason: 532,
  TotalAffectedOrders: 533, NoAffectedOrders: 534, AffectedOrderID: 535, AffectedSecondaryOrderID: 536,
} as const;

const TAG_NAMES = new Map<number, string>(Object.entries(Tag).map(([name, tag]) => [tag, name]));
/** "Price (44)" for texts (58); a tag this file does not name is shown by number only. */
export function describeTag(tag: number): string {
  const name = TAG_NAMES.get(tag);
  return name === undefined ? `tag ${tag}` : `${name} (${tag})`;
}

/** StandardHeader fields: FIX requires them before any body field (373=14 otherwise). */
export const HEADER_TAGS: ReadonlySet<number> = new Set([
  Tag.BeginString, Tag.BodyLength, Tag.MsgType, Tag.SenderCompID, Tag.TargetCompID,
  Tag.OnBehalfOfCompID, Tag.DeliverToCompID, Tag.SecureDataLen, Tag.SecureData, Tag.MsgSeqNum,
  Tag.SenderSubID, Tag.SenderLocationID, Tag.TargetSubID, Tag.TargetLocationID, Tag.OnBehalfOfSubID,
  Tag.OnBehalfOfLocationID, Tag.DeliverToSubID, Tag.DeliverToLocationID, Tag.PossDupFlag,
  Tag.PossResend, Tag.SendingTime, Tag.OrigSendingTime, Tag.XmlDataLen, Tag.XmlData,
  Tag.MessageEncoding, Tag.LastMsgSeqNumProcessed, Tag.NoHops, Tag.HopCompID, Tag.HopSendingTime,
  Tag.HopRefID,
]);

/** FIX44 DATA fields and the LENGTH field that must precede each: their values may hold SOH. */
export const DATA_LENGTH_TAG: ReadonlyMap<number, number> = new Map([
  [89, 93], [91, 90], [96, 95], [213, 212], [349, 348], [351, 350], [353, 352], [355, 354],
  [357, 356], [359, 358], [361, 360], [363, 362], [365, 364], [446, 445], [619, 618], [622, 621],
]);

export const MsgType = {
  Heartbeat: '0', TestRequest: '1', ResendRequest: '2', Reject: '3', SequenceReset: '4', Logout: '5',
  ExecutionReport: '8', OrderCancelReject: '9', Logon: 'A', NewOrderSingle: 'D',
  OrderCancelRequest: 'F', OrderCancelReplaceRequest: 'G', MarketDataRequest: 'V',
  MarketDataSnapshotFullRefresh: 'W', MarketDataRequestReject: 'Y', BusinessMessageReject: 'j',
  RequestForPositions: 'AN', RequestForPositionsAck: 'AO', PositionReport: 'AP',
  OrderStatusRequest: 'H', OrderMassCancelRequest: 'q', OrderMassCancelReport: 'r',
} as const;

/** Every MsgType FIX 4.4 defines: one outside it is 373=11, one inside but unsupported is j 380=3. */
export const FIX44_MSG_TYPES: ReadonlySet<string> = new Set([
  ...'0123456789ABCDEFGHJKLMNPQRSTVWXYZabcdefghijklmnopqrstuvwxyz',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((c) => `A${c}`),
  'BA', 'BB', 'BC', 'BD', 'BE', 'BF', 'BG', 'BH',
]);

export const EncryptMethod = { None: 0, Pkcs: 1, Des: 2, PkcsDes: 3, PgpDes: 4, PgpDesMd5: 5, PemDesMd5: 6 } as const;

export const Side = {
  Buy: '1', Sell: '2', BuyMinus: '3', SellPlus: '4', SellShort: '5', SellShortExempt: '6',
  Undisclosed: '7', Cross: '8', CrossShort: '9', CrossShortExempt: 'A', AsDefined: 'B', Opposite: 'C',
  Subscribe: 'D', Redeem: 'E', Lend: 'F', Borrow: 'G',
} as const;
export type SideValue = ValueOf<typeof Side>;

export const OrdType = {
  Market: '1', Limit: '2', Stop: '3', StopLimit: '4', WithOrWithout: '6', LimitOrBetter: '7',
  LimitWithOrWithout: '8', OnBasis: '9', PreviouslyQuoted: 'D', PreviouslyIndicated: 'E', Forex: 'G',
  Funari: 'I', MarketIfTouched: 'J', MarketWithLeftoverAsLimit: 'K', PreviousFundValuationPoint: 'L',
  NextFundValuationPoint: 'M', Pegged: 'P',
} as const;
export type OrdTypeValue = ValueOf<typeof OrdType>;

export const TimeInForce = {
  Day: '0', GoodTillCancel: '1', AtTheOpening: '2', ImmediateOrCancel: '3', FillOrKill: '4',
  GoodTillCrossing: '5', GoodTillDate: '6', AtTheClose: '7',
} as const;
export type TimeInForceValue = ValueOf<typeof TimeInForce>;

export const HandlInst = { AutomatedPrivate: '1', AutomatedPublic: '2', Manual: '3' } as const;
export type HandlInstValue = ValueOf<typeof HandlInst>;

export const ExecType = {
  New: '0', DoneForDay: '3', Canceled: '4', Replaced: '5', PendingCancel: '6', Stopped: '7',
  Rejected: '8', Suspended: '9', PendingNew: 'A', Calculated: 'B', Expired: 'C', Restated: 'D',
  PendingReplace: 'E', Trade: 'F', TradeCorrect: 'G', TradeCancel: 'H', OrderStatus: 'I',
} as const;
export type ExecTypeValue = ValueOf<typeof ExecType>;

export const OrdStatus = {
  New: '0', PartiallyFilled: '1', Filled: '2', DoneForDay: '3', Canceled: '4', PendingCancel: '6',
  Stopped: '7', Rejected: '8', Suspended: '9', PendingNew: 'A', Calculated: 'B', Expired: 'C',
  AcceptedForBidding: 'D', PendingReplace: 'E',
} as const;
export type OrdStatusValue = ValueOf<typeof OrdStatus>;

/** QuickFIX's FIX44.xml has no 12 (its 11 swallowed 12's description). */
export const OrdRejReason = {
  Broker: 0, UnknownSymbol: 1, ExchangeClosed: 2, OrderExceedsLimit: 3, TooLateToEnter: 4,
  UnknownOrder: 5, DuplicateOrder: 6, DuplicateOfVerballyCommunicatedOrder: 7, StaleOrder: 8,
  TradeAlongRequired: 9, InvalidInvestorId: 10, UnsupportedOrderCharacteristic: 11,
  IncorrectQuantity: 13, IncorrectAllocatedQuantity: 14, UnknownAccount: 15, Other: 99,
} as const;
export type OrdRejReasonValue = ValueOf<typeof OrdRejReason>;

export const CxlRejReason = {
  TooLateToCancel: 0, UnknownOrder: 1, Broker: 2, AlreadyPendingCancelOrReplace: 3,
  UnableToProcessMassCancel: 4, OrigOrdModTimeMismatch: 5, DuplicateClOrdID: 6, Other: 99,
} as const;
export type CxlRejReasonValue = ValueOf<typeof CxlRejReason>;

export const CxlRejResponseTo = { OrderCancelRequest: '1', OrderCancelReplaceRequest: '2' } as const;
export type CxlRejResponseToValue = ValueOf<typeof CxlRejResponseTo>;

export const SessionRejectReason = {
  InvalidTagNumber: 0, RequiredTagMissing: 1, TagNotDefinedForMsgType: 2, UndefinedTag: 3,
  TagSpecifiedWithoutValue: 4, ValueIsIncorrect: 5, IncorrectDataFormat: 6, DecryptionProblem: 7,
  SignatureProblem: 8, CompIdProblem: 9, SendingTimeAccuracyProblem: 10, InvalidMsgType: 11,
  XmlValidationError: 12, TagAppearsMoreThanOnce: 13, TagSpecifiedOutOfRequiredOrder: 14,
  RepeatingGroupFieldsOutOfOrder: 15, IncorrectNumInGroupCount: 16,
  NonDataValueIncludesFieldDelimiter: 17, Other: 99,
} as const;
export type SessionRejectReasonValue = ValueOf<typeof SessionRejectReason>;

/**
 * The FIX44 values plus ThrottleLimitExceeded 99, the one value the gateway sends outside the stock
 * dictionary: DECISIONS answers throttled messages with 380=99 (Artio's choice; FIX 4.4 has no
 * throttle code, FIX 5.0SP2 EP116 later added 8). docs/fix.md documents the exception.
 */
export const BusinessRejectReason = {
  Other: 0, UnknownId: 1, UnknownSecurity: 2, UnsupportedMessageType: 3, ApplicationNotAvailable: 4,
  ConditionallyRequiredFieldMissing: 5, NotAuthorized: 6, DeliverToFirmNotAvailable: 7,
  ThrottleLimitExceeded: 99,
} as const;
export type BusinessRejectReasonValue = ValueOf<typeof BusinessRejectReason>;

export const MDReqRejReason = {
  UnknownSymbol: '0', DuplicateMDReqID: '1', InsufficientBandwidth: '2', InsufficientPermissions: '3',
  UnsupportedSubscriptionRequestType: '4', UnsupportedMarketDepth: '5', UnsupportedMDUpdateType: '6',
  UnsupportedAggregatedBook: '7', UnsupportedMDEntryType: '8', UnsupportedTradingSessionID: '9',
  UnsupportedScope: 'A', UnsupportedOpenCloseSettlFlag: 'B', UnsupportedMDImplicitDelete: 'C',
} as const;
export type MDReqRejReasonValue = ValueOf<typeof MDReqRejReason>;

export const MassCancelRequestType = {
  CancelOrdersForASecurity: '1', CancelOrdersForAnUnderlyingSecurity: '2', CancelOrdersForAProduct: '3',
  CancelOrdersForACfiCode: '4', CancelOrdersForASecurityType: '5', CancelOrdersForATradingSession: '6', CancelAllOrders: '7',
} as const;
export type MassCancelRequestTypeValue = ValueOf<typeof MassCancelRequestType>;

export const MassCancelResponse = {
  CancelRequestRejected: '0', CancelOrdersForASecurity: '1', CancelOrdersForAnUnderlyingSecurity: '2', CancelOrdersForAProduct: '3',
  CancelOrdersForACfiCode: '4', CancelOrdersForASecurityType: '5', CancelOrdersForATradingSession: '6', CancelAllOrders: '7',
} as const;
export type MassCancelResponseValue = ValueOf<typeof MassCancelResponse>;

export const MassCancelRejectReason = {
  MassCancelNotSupported: '0', InvalidOrUnknownSecurity: '1', InvalidOrUnknownUnderlying: '2', InvalidOrUnknownProduct: '3',
  InvalidOrUnknownCfiCode: '4', InvalidOrUnknownSecurityType: '5', InvalidOrUnknownTradingSession: '6', Other: '99',
} as const;
export type MassCancelRejectReasonValue = ValueOf<typeof MassCancelRejectReason>;

export const SubscriptionRequestType = { Snapshot: '0', SnapshotPlusUpdates: '1', Unsubscribe: '2' } as const;
export type SubscriptionRequestTypeValue = ValueOf<typeof SubscriptionRequestType>;

export const MDUpdateType = { FullRefresh: 0, IncrementalRefresh: 1 } as const;
export type MDUpdateTypeValue = ValueOf<typeof MDUpdateType>;

export const MDEntryType = {
  Bid: '0', Offer: '1', Trade: '2', IndexValue: '3', OpeningPrice: '4', ClosingPrice: '5',
  SettlementPrice: '6', SessionHighPrice: '7', SessionLowPrice: '8', SessionVwapPrice: '9',
  Imbalance: 'A', TradeVolume: 'B', OpenInterest: 'C',
} as const;
export type MDEntryTypeValue = ValueOf<typeof MDEntryType>;

export const PosReqType = { Positions: 0, Trades: 1, Exercises: 2, Assignments: 3 } as const;
export type PosReqTypeValue = ValueOf<typeof PosReqType>;

export const AccountType = {
  CustomerSide: 1, NonCustomerSide: 2, HouseTrader: 3, FloorTrader: 4, NonCustomerSideCrossMargined: 6,
  HouseTraderCrossMargined: 7, JointBackOffice: 8,
} as const;
export type AccountTypeValue = ValueOf<typeof AccountType>;

export const PosReqResult = {
  ValidRequest: 0, InvalidOrUnsupported: 1, NoPositionsFound: 2, NotAuthorized: 3, NotSupported: 4,
  Other: 99,
} as const;
export type PosReqResultValue = ValueOf<typeof PosReqResult>;

export const PosReqStatus = { Completed: 0, CompletedWithWarnings: 1, Rejected: 2 } as const;
export type PosReqStatusValue = ValueOf<typeof PosReqStatus>;

export const SettlPriceType = { Final: 1, Theoretical: 2 } as const;
export type SettlPriceTypeValue = ValueOf<typeof SettlPriceType>;

export const PosType = {
  TransactionQty: 'TQ', IntraSpreadQty: 'IAS', InterSpreadQty: 'IES', EndOfDayQty: 'FIN',
  StartOfDayQty: 'SOD', OptionExerciseQty: 'EX', OptionAssignment: 'AS', TransactionFromExercise: 'TX',
  TransactionFromAssignment: 'TA', PitTradeQty: 'PIT', TransferTradeQty: 'TRF',
  ElectronicTradeQty: 'ETR', AllocationTradeQty: 'ALC', AdjustmentQty: 'PA', AsOfTradeQty: 'ASF',
  DeliveryQty: 'DLV', TotalTransactionQty: 'TOT', CrossMarginQty: 'XM', IntegralSplit: 'SPL',
} as const;
export type PosTypeValue = ValueOf<typeof PosType>;

export const PosAmtType = {
  FinalMarkToMarket: 'FMTM', IncrementalMarkToMarket: 'IMTM', TradeVariation: 'TVAR',
  StartOfDayMarkToMarket: 'SMTM', Premium: 'PREM', CashResidual: 'CRES', Cash: 'CASH',
  ValueAdjusted: 'VADJ',
} as const;
export type PosAmtTypeValue = ValueOf<typeof PosAmtType>;

export const PartyIDSource = {
  Bic: 'B', GenerallyAcceptedMarketParticipant: 'C', ProprietaryCustomCode: 'D', IsoCountryCode: 'E',
  SettlementEntityLocation: 'F', Mic: 'G', CsdParticipantMemberCode: 'H', KoreanInvestorId: '1',
  TaiwaneseQfii: '2', TaiwaneseTradingAccount: '3', MalaysianCentralDepository: '4',
  ChineseBShare: '5', UkNationalInsuranceOrPension: '6', UsSocialSecurityNumber: '7',
  UsEmployerIdentificationNumber: '8', AustralianBusinessNumber: '9', AustralianTaxFileNumber: 'A',
  DirectedBroker: 'I',
} as const;
export type PartyIDSourceValue = ValueOf<typeof PartyIDSource>;

export const PartyRole = {
  ExecutingFirm: 1, BrokerOfCredit: 2, ClientId: 3, ClearingFirm: 4, InvestorId: 5,
  IntroducingFirm: 6, EnteringFirm: 7, LocateLendingFirm: 8, FundManagerClientId: 9,
  SettlementLocation: 10, OrderOriginationTrader: 11, ExecutingTrader: 12, OrderOriginationFirm: 13,
  GiveupClearingFirm: 14, CorrespondantClearingFirm: 15, ExecutingSystem: 16, ContraFirm: 17,
  ContraClearingFirm: 18, SponsoringFirm: 19, UnderlyingContraFirm: 20, ClearingOrganization: 21,
  Exchange: 22, CustomerAccount: 24, CorrespondentClearingOrganization: 25, CorrespondentBroker: 26,
  BuyerSeller: 27, Custodian: 28, Intermediary: 29, Agent: 30, SubCustodian: 31, Beneficiary: 32,
  InterestedParty: 33, RegulatoryBody: 34, LiquidityProvider: 35, EnteringTrader: 36,
  ContraTrader: 37, PositionAccount: 38,
} as const;
export type PartyRoleValue = ValueOf<typeof PartyRole>;

/** The values of one enumeration above, for membership checks on inbound values. */
export function valueSet<T extends Record<string, string | number>>(e: T): ReadonlySet<ValueOf<T>> {
  return new Set(Object.values(e) as ValueOf<T>[]);
}

/**
 * Every tag of the FIX44 Instrument component (Symbol, SecurityID, SecAltIDGrp, EvntGrp, ...):
 * what an entry of a group holding an Instrument (NoRelatedSym) may carry.
 */
export const INSTRUMENT_TAGS: readonly number[] = [
  55, 65, 48, 22, 454, 455, 456, 460, 461, 167, 762, 200, 541, 201, 224, 225, 239, 226, 227, 228,
  255, 543, 470, 471, 472, 240, 202, 947, 206, 231, 223, 207, 106, 348, 349, 107, 350, 351, 691,
  667, 875, 876, 864, 865, 866, 867, 868, 873, 874,
];
