import { Router, type RequestHandler } from 'express';
import { loadPublishingPublisher } from '../../commands/catalog/load-publishing-publisher.js';
import { publishApp } from '../../commands/catalog/publish-app.js';
import type { Services } from '../../services.js';
import { enabledPublishing } from './enabled-publishing.js';
import { ownWorkRouter } from './own-work-router.js';
import { publisherPrincipalOf } from './publisher-principal-of.js';
import { readPublishUpload } from './read-publish-upload.js';

/**
 * POST /publish/app and its alias /publisher/app, validated here rather than by the OpenAPI
 * validator, which would buffer the stream; and the publisher's reads of its own work.
 */
export function publishRouter(services: Services): Router {
  const router = Router();
  const publish: RequestHandler = async (req, res) => {
    try {
      const publishing = enabledPublishing(services.publishing);
      const publisher = await loadPublishingPublisher(services.db, publisherPrincipalOf(req, publishing.tokens));
      const upload = await readPublishUpload(req);
      res.status(201).json(await publishApp(services, publishing, publisher, upload));
    } catch (error) {
      // Refused before the whole body arrived: the rest is never read, so the connection cannot be reused.
      if (!req.complete) res.set('connection', 'close');
      throw error;
    }
  };
  router.post(['/publish/app', '/publisher/app'], publish);
  router.use(ownWorkRouter(services));
  return router;
}
