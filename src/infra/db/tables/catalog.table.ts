import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type ApplicationStatus = 'SUBMISSION' | 'REVIEW' | 'APPROVAL' | 'PRE_RELEASE' | 'RELEASE' | 'UNAVAILABLE';

type CreatedAt = Generated<Date>;

export type PublishersTable = {
  id: Generated<number>;
  email: string;
  name: string | null;
  verified: Generated<boolean>;
  oauth_provider: string | null;
  oauth_subject: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
};

export type ProjectsTable = {
  id: Generated<number>;
  app_name: string;
  app_version: string;
  publisher_id: number | null;
  description: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
};

export type ApplicationsTable = {
  id: Generated<number>;
  name: string;
  display_name: string;
  version: string;
  description: string | null;
  category: string | null;
  sem_ver: string | null;
  status: ColumnType<ApplicationStatus, ApplicationStatus | undefined, ApplicationStatus>;
  project_id: number;
  publisher_id: number | null;
  /** The uploaded ZIP; never listed or selected by the record interface. */
  package: Buffer | null;
  package_size: number | null;
  package_sha256: string | null;
  icon_url: string | null;
  screenshot_urls: JSONColumnType<string[], string | undefined, string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
};

export type PurchasesTable = {
  id: Generated<number>;
  workspace: string;
  application_id: number;
  purchased_by: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
};
