// Bytes of the FIX tag=value syntax.
export const SOH = 0x01;
export const EQUALS = 0x3d;
export const ZERO = 0x30;
export const MINUS = 0x2d;
export const DOT = 0x2e;
export const COLON = 0x3a;
export const CHAR_Y = 0x59;
export const CHAR_N = 0x4e;

/** "8=FIX.4.4<SOH>": every frame starts with it (spec: BeginString FIX.4.4). */
export const BEGIN_STRING_FIELD = Uint8Array.from('8=FIX.4.4\x01', (c) => c.charCodeAt(0));
/** Where the framer resynchronises after garbage: the start of any BeginString field. */
export const FRAME_START = Uint8Array.from('8=FIX', (c) => c.charCodeAt(0));
