import type { ApprovalDelegation } from '../approval/approval-delegation.js';
import type { BookingMoveState } from './booking-move-state.js';

/** What a confirm or decline decides on: the move's state and the delegations the actor received. */
export type BookingDecisionState = BookingMoveState & { delegations?: readonly ApprovalDelegation[] };
