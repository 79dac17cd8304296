import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { partnerPortalApi } from './partner-portal-api.definition';

void runServiceMain(partnerPortalApi);
