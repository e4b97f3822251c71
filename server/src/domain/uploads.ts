import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MAX_BYTES } from '@fankurve/shared';
import { badInput, DomainError } from './errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/privateFiles.js';

/*
 * Uploaded images (event images, the logo): at most 5 MB, image types recognised by their content
 * (magic bytes, never the name or the declared type), stored in UPLOADS_DIR (default DATA_DIR/uploads) with a random
 * name that the /uploads/{name} route serves. SVG is not accepted: it can carry scripts.
 */

export type ImageExtension = 'jpg' | 'png' | 'gif' | 'webp';

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type of a file by its first bytes, or null when it is no JPEG, PNG, GIF or WebP. */
export function imageTypeOf(bytes: Uint8Array): ImageExtension | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/**
 * Checks an uploaded file: present (400 'No file uploaded'), at most 5 MB (413 'File size must be
 * less than 5MB'), an image by content (400 'Only image files are allowed'). Returns its extension.
 */
export function checkImage(file: Uint8Array | null): ImageExtension {
  if (!file || file.byteLength === 0) throw badInput('noFileUploaded');
  if (file.byteLength > IMAGE_MAX_BYTES) throw new DomainError('fileTooLarge', 413);
  const type = imageTypeOf(file);
  if (!type) throw badInput('onlyImages');
  return type;
}

/** Where uploads live and how they are written and removed. */
export class UploadStore {
  constructor(readonly dir: string) {}

  /** Writes the file under a fresh random name (`<prefix>-<24 url-safe chars>.<ext>`) and returns the name. */
  async save(bytes: Uint8Array, extension: ImageExtension, prefix = 'img'): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const name = `${prefix}-${crypto.randomBytes(18).toString('base64url')}.${extension}`;
    await fs.writeFile(path.join(this.dir, name), bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return name;
  }

  /** Removes a file by name; a missing file or a name that is no plain file name is ignored. */
  async remove(name: string | null | undefined): Promise<void> {
    if (!name || path.basename(name) !== name || name.startsWith('.')) return;
    await fs.rm(path.join(this.dir, name), { force: true });
  }
}
