/** SQL for `device_credentials`: one row per device, looked up by what a transport presents. */
import type { StatementSync } from 'node:sqlite';
import type { CredentialsType } from '../../contract/credentials.ts';
import type { Db } from '../../db/sqlite.ts';
import { newId } from '../../lib/ids.ts';

export interface CredentialsRow {
  deviceId: string;
  credentialsType: CredentialsType;
  credentialsId: string;
  /** X509_CERTIFICATE: the public key PEM. */
  credentialsValue: string | null;
  mqttClientId: string | null;
  mqttUserName: string | null;
  mqttPasswordHash: string | null;
  updatedTime: number;
}

interface CredentialsRecord {
  device_id: string;
  credentials_type: CredentialsType;
  credentials_id: string;
  credentials_value: string | null;
  mqtt_client_id: string | null;
  mqtt_user_name: string | null;
  mqtt_password_hash: string | null;
  update_time: number;
}

function toRow(r: CredentialsRecord): CredentialsRow {
  return {
    deviceId: r.device_id,
    credentialsType: r.credentials_type,
    credentialsId: r.credentials_id,
    credentialsValue: r.credentials_value,
    mqttClientId: r.mqtt_client_id,
    mqttUserName: r.mqtt_user_name,
    mqttPasswordHash: r.mqtt_password_hash,
    updatedTime: r.update_time,
  };
}

const COLUMNS = 'device_id, credentials_type, credentials_id, credentials_value, mqtt_client_id, mqtt_user_name, mqtt_password_hash, update_time';

export class CredentialsRepository {
  private readonly insertStatement: StatementSync;
  private readonly byIdStatement: StatementSync;
  private readonly byUserNameStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.insertStatement = db.prepare(
      `INSERT INTO device_credentials (id, device_id, credentials_type, credentials_id, credentials_value, mqtt_client_id,
         mqtt_user_name, mqtt_password_hash, create_time, update_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byIdStatement = db.prepare(`SELECT ${COLUMNS} FROM device_credentials WHERE credentials_id = ?`);
    this.byUserNameStatement = db.prepare(`SELECT ${COLUMNS} FROM device_credentials WHERE mqtt_user_name = ?`);
  }

  findByDevice(deviceId: string): CredentialsRow | undefined {
    const r = this.db.prepare(`SELECT ${COLUMNS} FROM device_credentials WHERE device_id = ?`).get(deviceId) as CredentialsRecord | undefined;
    return r && toRow(r);
  }

  /** By credentials_id, unique across every type (token, key fingerprint, MQTT identity hash). */
  findByCredentialsId(credentialsId: string): CredentialsRow | undefined {
    const r = this.byIdStatement.get(credentialsId) as CredentialsRecord | undefined;
    return r && toRow(r);
  }

  findByClientId(clientId: string): CredentialsRow | undefined {
    const r = this.db.prepare(`SELECT ${COLUMNS} FROM device_credentials WHERE mqtt_client_id = ?`).get(clientId) as CredentialsRecord | undefined;
    return r && toRow(r);
  }

  findByUserName(userName: string): CredentialsRow | undefined {
    const r = this.byUserNameStatement.get(userName) as CredentialsRecord | undefined;
    return r && toRow(r);
  }

  insert(row: CredentialsRow): void {
    this.insertStatement.run(
      newId(), row.deviceId, row.credentialsType, row.credentialsId, row.credentialsValue, row.mqttClientId,
      row.mqttUserName, row.mqttPasswordHash, row.updatedTime, row.updatedTime,
    );
  }

  /** Replaces the device's credentials with `row`. */
  replace(row: CredentialsRow): void {
    this.db
      .prepare(
        `UPDATE device_credentials SET credentials_type = ?, credentials_id = ?, credentials_value = ?, mqtt_client_id = ?,
           mqtt_user_name = ?, mqtt_password_hash = ?, update_time = ?
         WHERE device_id = ?`,
      )
      .run(
        row.credentialsType, row.credentialsId, row.credentialsValue, row.mqttClientId, row.mqttUserName,
        row.mqttPasswordHash, row.updatedTime, row.deviceId,
      );
  }
}
