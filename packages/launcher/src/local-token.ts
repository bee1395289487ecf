import fs from "node:fs";
import path from "node:path";
import { authenticateToken, createToken, type Db, TokenNameTakenError } from "@cnibench/db";

/**
 * The embedded default's upload token: kept in a file only its owner can read, created on first
 * start and re-used after (a new one replaces it if it was revoked or the database was reset).
 */
export async function ensureLocalUploadToken(db: Db, workspaceId: string, file: string): Promise<string> {
  if (fs.existsSync(file)) {
    const token = fs.readFileSync(file, "utf8").trim();
    if (token && (await authenticateToken(db, token))) return token;
  }
  let created: { token: string } | undefined;
  for (let n = 1; !created; n++) {
    try {
      created = await createToken(db, workspaceId, n === 1 ? "local" : `local-${n}`);
    } catch (error) {
      if (!(error instanceof TokenNameTakenError)) throw error;
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${created.token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600); // writeFileSync keeps an existing file's mode
  return created.token;
}
