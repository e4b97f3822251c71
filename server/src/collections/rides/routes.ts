import { messageAnswer } from '@fankurve/shared';
import { rideAnswer, rideSeatAnswer, ridesAnswer } from '@fankurve/shared/collections/rides/answers';
import { rideMessages, rideSeatMessages } from '@fankurve/shared/collections/rides/collection';
import { answerSeatInput, askSeatInput, createRideInput, updateRideInput } from '@fankurve/shared/collections/rides/schemas';
import { toBool, write } from '../../db/store.js';
import type { Api, AppDeps } from '../../http/context.js';
import { apiRoute, idParams, z } from '../../http/openapi.js';
import { requireActor } from '../../http/session.js';
import {
  answerSeat,
  askSeat,
  cancelRide,
  cancelSeat,
  changeRide,
  listRides,
  offerRide,
  withDriver,
  type RideSeatRow,
  type RideWithDriver,
} from './domain.js';

const tag = 'Rides';

/** The REST shape of a ride (`restRide`): drives_back as a boolean, no seq or tombstone flag. */
export function toRestRide(row: RideWithDriver) {
  const { deleted: _deleted, seq: _seq, ...rest } = row;
  return { ...rest, drives_back: toBool(row.drives_back) };
}

/** The REST shape of a seat request (`restRideSeat`): no seq or tombstone flag. */
export function toRestSeat(row: RideSeatRow) {
  const { deleted: _deleted, seq: _seq, ...rest } = row;
  return { ...rest, seats: Number(row.seats) };
}

const seatParams = z.object({ id: z.string().min(1).max(64), seatId: z.string().min(1).max(64) });

/** Rides: every signed-in member reads and offers them; the driver changes and cancels, an admin may remove. */
export function rideRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/events/{id}/rides',
      tag,
      summary: "The event's rides, soonest departure first",
      params: idParams,
      answers: { 200: ridesAnswer },
    }),
    async (c) => {
      requireActor(c);
      const rows = await listRides(deps.store.db, c.req.valid('param').id);
      return c.json({ success: true as const, rides: rows.map(toRestRide) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/events/{id}/rides',
      tag,
      summary: 'Offer a ride to the event (the caller drives)',
      params: idParams,
      body: createRideInput,
      answers: { 201: rideAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => offerRide(w, actor, c.req.valid('param').id, c.req.valid('json')));
      const ride = toRestRide(await withDriver(deps.store.db, row));
      return c.json({ success: true as const, message: rideMessages.rideSaved, ride }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/rides/{id}',
      tag,
      summary: 'Change a ride (its driver)',
      params: idParams,
      body: updateRideInput,
      answers: { 200: rideAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => changeRide(w, actor, c.req.valid('param').id, c.req.valid('json')));
      const ride = toRestRide(await withDriver(deps.store.db, row));
      return c.json({ success: true as const, message: rideMessages.rideSaved, ride }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/rides/{id}',
      tag,
      summary: 'Cancel a ride (its driver) or remove it (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => cancelRide(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: rideMessages.rideCancelled }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/rides/{id}/seats',
      tag,
      summary: "Ask for seats in another member's ride",
      params: idParams,
      body: askSeatInput,
      answers: { 201: rideSeatAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const row = await write(deps.store, (w) => askSeat(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, message: rideSeatMessages.rideSeatAsked, seat: toRestSeat(row) }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/rides/{id}/seats/{seatId}',
      tag,
      summary: 'Accept or decline a seat request (the driver; an admin too)',
      params: seatParams,
      body: answerSeatInput,
      answers: { 200: rideSeatAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id, seatId } = c.req.valid('param');
      const { state } = c.req.valid('json');
      const row = await write(deps.store, (w) => answerSeat(w, actor, seatId, state, { rideId: id, adminToo: true }));
      return c.json({ success: true as const, message: rideSeatMessages.rideSeatAnswered, seat: toRestSeat(row) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/rides/{id}/seats/{seatId}',
      tag,
      summary: 'Cancel a seat request (its passenger) or remove it (admin)',
      params: seatParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const { id, seatId } = c.req.valid('param');
      await write(deps.store, (w) => cancelSeat(w, actor, seatId, { rideId: id, adminToo: true }));
      return c.json({ success: true as const, message: rideSeatMessages.rideSeatCancelled }, 200);
    },
  );
}
