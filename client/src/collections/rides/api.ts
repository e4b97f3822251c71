import type { MessageAnswer } from '@fankurve/shared';
import { api } from '../../api/client.js';

/*
 * Rides: the admin's removal of another member's ride, online REST only (the driver's own writes go
 * through the device and the sync: data.ts). The list follows through the rides sync collection.
 */

export const removeRide = (rideId: string) =>
  api<MessageAnswer>(`/api/rides/${encodeURIComponent(rideId)}`, { method: 'DELETE' });
