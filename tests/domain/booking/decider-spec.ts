import { expect } from 'chai';
import { DomainError, type DomainErrorCode, type DomainErrorDetails } from '../../../src/domain/domain-error.js';

type Decision<Event> = Event | Event[];
const asList = <Event>(decision: Decision<Event>): Event[] => (Array.isArray(decision) ? decision : [decision]);

/**
 * given(state).when(decide).then(events) / .thenThrows(code, details): a pure decision read as
 * the rule it implements.
 */
export function given<State>(state: State) {
  return {
    when<Event>(decide: (state: State) => Decision<Event>) {
      return {
        then(expected: Decision<Event>): void {
          expect(asList(decide(state))).to.deep.equal(asList(expected));
        },
        thenNothing(): void {
          expect(asList(decide(state))).to.deep.equal([]);
        },
        thenThrows(code: DomainErrorCode, details?: DomainErrorDetails): DomainError {
          let thrown: unknown;
          try {
            decide(state);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `expected DomainError ${code}`).to.be.instanceOf(DomainError);
          const error = thrown as DomainError;
          expect(error.code, error.message).to.equal(code);
          if (details) expect(error.details).to.deep.include(details);
          return error;
        },
      };
    },
  };
}
