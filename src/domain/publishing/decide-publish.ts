import { forbidden, notFound, recordConflict } from '../domain-error.js';
import { checkPublisherVerified } from './publisher-not-verified.js';
import type { PublishForm } from './publish-form.js';

export type PublishingPublisher = { id: number; verified: boolean };

/** The project an upload names by (appName, appVersion), with its owner. */
export type PublishingProject = { id: number; publisherId: number | null };

export type PublishState = {
  publisher: PublishingPublisher;
  project: PublishingProject | null;
  /** An application with this name and version exists already. */
  alreadySubmitted: boolean;
  /** Outside development ownership is strict: a project without an owner accepts nobody (spec 4.1 rule 3). */
  strictOwnership: boolean;
};

/** The application an accepted upload creates, before its files are attached. */
export type NewApplication = PublishForm & { status: 'SUBMISSION'; projectId: number; publisherId: number };

/** Refuses in the documented order (403 unverified, 404 project, 403 owner, 409 duplicate) or accepts. */
export function decidePublish(form: PublishForm, state: PublishState): NewApplication {
  const { publisher, project } = state;
  checkPublisherVerified(publisher);
  if (!project) throw notFound(`Project with appName "${form.name}" and appVersion "${form.version}"`);
  const owns = project.publisherId === publisher.id || (project.publisherId === null && !state.strictOwnership);
  if (!owns) throw forbidden('only the publisher who owns the project may publish it');
  if (state.alreadySubmitted) throw recordConflict(`application "${form.name}" version "${form.version}" has already been submitted`);
  return { ...form, status: 'SUBMISSION', projectId: project.id, publisherId: publisher.id };
}
