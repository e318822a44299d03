// The core's units are told apart by the compiler: a value typed in one unit is refused where
// another is asked (the @ts-expect-error lines fail `tsc` the day they stop being errors), while
// plain numbers and the edge's conversions still give each unit.
import { describe, expect, it } from 'vitest';
import type { Centilots, Cents, Ticks, UnixMs } from '../../src/engine/types.js';
import { centilotsToLots, lotsToCentilots, parseLots, parseTicks, toTicks } from '../../src/market/ticks.js';

const asVolume = (volume: Centilots): Centilots => volume;
const asPrice = (price: Ticks): Ticks => price;
const asMoney = (money: Cents): Cents => money;
const asTime = (atMs: UnixMs): UnixMs => atMs;

describe('units', () => {
  it('a price is not a volume, money is not a time, without a conversion', () => {
    const price: Ticks = 108_500;
    const volume: Centilots = 150;
    const balance: Cents = 1_000_00;
    const atMs: UnixMs = 1_700_000_000_000;
    // @ts-expect-error a price passed as a volume
    asVolume(price);
    // @ts-expect-error a volume passed as a price
    asPrice(volume);
    // @ts-expect-error a time passed as money
    asMoney(atMs);
    // @ts-expect-error money passed as a time
    asTime(balance);
    expect([asPrice(price), asVolume(volume), asMoney(balance), asTime(atMs)]).toEqual([108_500, 150, 100_000, 1_700_000_000_000]);
  });

  it('the conversions at the edge give the unit asked for', () => {
    const volume = lotsToCentilots(1.5);
    const price = toTicks(1.085, 5);
    expect(volume).toBe(150);
    expect(price).toBe(108_500);
    if (volume === null || price === null) return;
    expect(centilotsToLots(asVolume(volume))).toBe(1.5);
    // @ts-expect-error ticks are not centilots, even from the conversions
    asVolume(price);
    // Text parses exactly to either unit, each through its own conversion.
    expect([parseLots('0.5'), parseLots('0.505'), parseTicks('1.08500', 5)]).toEqual([50, null, 108_500]);
    // @ts-expect-error a parsed price is not a volume
    asVolume(parseTicks('0.5', 2) ?? 0);
  });
});
