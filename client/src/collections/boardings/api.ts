import type { TransportAnswer } from '@fankurve/shared';
import type { BoardingAnswer, FareAnswer } from '@fankurve/shared/collections/boardings/answers';
import type { SeatPlanInput } from '@fankurve/shared/collections/boardings/schemas';
import { api } from '../../api/client.js';

/*
 * The bus's writes on a transport option, online REST only (docs/product.md, Bus): the seat plan, the
 * seats, the captains and the fare. The option's document follows through the transports sync
 * collection; the ticks go through the device (data.ts).
 */

const id = (value: string) => encodeURIComponent(value);

export const saveSeatPlan = (transportId: string, body: SeatPlanInput) =>
  api<TransportAnswer>(`/api/transports/${id(transportId)}/seat-plan`, { method: 'PUT', body });

export const assignSeat = (transportId: string, seat: number, attendeeId: string | null) =>
  api<TransportAnswer>(`/api/transports/${id(transportId)}/seats/${seat}`, { method: 'PUT', body: { attendee_id: attendeeId } });

export const saveCaptains = (transportId: string, userIds: string[]) =>
  api<TransportAnswer>(`/api/transports/${id(transportId)}/captains`, { method: 'PUT', body: { user_ids: userIds } });

export const chargeFare = (transportId: string) =>
  api<FareAnswer>(`/api/transports/${id(transportId)}/charge-fare`, { method: 'POST' });

/** A tick over REST (the screens tick through the device; tests and tools may use this). */
export const tickOnline = (transportId: string, attendeeId: string, onBoard: boolean) =>
  api<BoardingAnswer>(`/api/transports/${id(transportId)}/boarding/${id(attendeeId)}`, {
    method: 'PUT',
    body: { on_board: onBoard },
  });
