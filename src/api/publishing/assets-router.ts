import express, { Router } from 'express';

/** The local bucket, read-only: GET and HEAD of stored images only, never a listing or a dotfile. */
export function assetsRouter(dir: string): Router {
  const router = Router();
  router.use(
    express.static(dir, {
      index: false,
      dotfiles: 'deny',
      redirect: false,
      fallthrough: true,
      setHeaders: (res) => {
        res.set('x-content-type-options', 'nosniff');
        res.set('content-security-policy', "default-src 'none'");
      },
    }),
  );
  return router;
}
