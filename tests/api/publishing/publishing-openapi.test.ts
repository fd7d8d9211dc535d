import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';

const specPath = fileURLToPath(new URL('../../../openapi/publishing.yaml', import.meta.url));

describe('the publishing OpenAPI description', () => {
  it('is a valid OpenAPI 3 document', async () => {
    await SwaggerParser.validate(specPath);
  });

  it('describes the upload on both paths with every refusal status, the publisher\'s own work, and the sign-in routes', async () => {
    const doc = (await SwaggerParser.dereference(specPath)) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of ['/publish/app', '/publisher/app']) {
      expect(Object.keys(doc.paths[path]!.post!.responses), path).to.have.members(['201', '400', '401', '403', '404', '409', '413', '415', '503']);
    }
    for (const path of ['/publish/projects', '/publish/applications']) {
      expect(Object.keys(doc.paths[path]!.get!.responses), path).to.have.members(['200', '400', '401', '503']);
    }
    expect(doc.paths['/auth/{provider}/login']!.get!.responses).to.have.property('302');
    expect(doc.paths['/auth/{provider}/callback']!.get!.responses).to.have.property('200');
  });
});
