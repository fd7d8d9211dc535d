import { randomUUID } from 'node:crypto';
import { parseClientInstant } from '../../../domain/booking/booking-time.js';
import type { CreateSeries } from '../../../domain/booking/series/decide-create-series.js';
import type { ResourceType } from '../../../domain/resource/resource.js';
import { checkUnits } from '../../../domain/resource/resource-units.js';

export type CreateSeriesInput = {
  resourceType: ResourceType;
  resourceId: string;
  title: string;
  startTime: string;
  endTime: string;
  recurrenceRule: string;
  timeZone?: string;
  exdates?: string[];
  bookerEmail?: string;
  /** LV1–LV3: the user booked for (contract §17). */
  bookerProfileId?: string;
  /** LV1 only: book in this workspace instead of the token's. */
  workspace?: string;
  /** Units of the resource each occurrence takes (contract §21). */
  units?: number;
};

/** The request body as the decision takes it (400 for a time without offset). */
export function createSeriesCommand(input: CreateSeriesInput): CreateSeries {
  return {
    parentId: randomUUID(),
    newId: randomUUID,
    title: input.title,
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    recurrenceRule: input.recurrenceRule,
    timeZone: input.timeZone,
    exdates: (input.exdates ?? []).map((text, i) => parseClientInstant(text, `/body/exdates/${i}`)),
    bookerEmail: input.bookerEmail,
    bookerProfileId: input.bookerProfileId,
    units: input.units === undefined ? undefined : checkUnits(input.units, '/body/units'),
  };
}
