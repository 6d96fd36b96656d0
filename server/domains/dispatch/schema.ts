import { z } from 'zod';
import { UserId } from '../units/schema.ts';

/** Dispatcher slots are numbered 1 to this. */
export const MAX_SLOTS = 20;

const slotRange = `slot must be a whole number from 1 to ${MAX_SLOTS}`;
const Slot = z.number({ error: slotRange }).int(slotRange).min(1, slotRange).max(MAX_SLOTS, slotRange);
/** Path parameter: digits only (no "1e1", " 1" or "0x1"); tRPC callers may send the number. */
const SlotParamValue = z.union([z.number(), z.string().regex(/^\d{1,3}$/, slotRange).transform(Number)], { error: slotRange }).pipe(Slot);

export const DispatcherSlot = z.object({ slot: z.number().int(), userId: z.string(), nickname: z.string(), since: z.date() });
export const DispatcherList = z.object({ maxSlots: z.number().int(), slots: z.array(DispatcherSlot).describe('Occupied slots, by number.') });

export const SetSlot = z.strictObject({ slot: SlotParamValue, userId: UserId });
export const SlotParam = z.strictObject({ slot: SlotParamValue });
export const SelfDispatcher = z.strictObject({
  slot: Slot.optional()
    .describe('The slot to take; the first free one when omitted.'),
}).optional();
export const SelfOnly = z.strictObject({}).optional();

export const SlotSet = DispatcherSlot.extend({
  replaced: z.string().nullable().describe('User id of the person who held the slot before, if anyone else did.'),
  movedFrom: z.array(z.number().int()).describe('Slots this person held before and left by this call.'),
});
export const SlotsCleared = z.object({ userId: z.string().nullable(), cleared: z.array(z.number().int()) });

export const StandbyEntry = z.object({ userId: z.string(), nickname: z.string(), since: z.date() });
export const StandbyList = z.object({ people: z.array(StandbyEntry) });
export const StandbyUserParam = z.strictObject({ userId: UserId });
export const StandbyRemoved = z.object({ removed: z.literal(true), userId: z.string() });
