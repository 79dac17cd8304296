import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { quoteBuilder } from './quote-builder.definition';

void runServiceMain(quoteBuilder);
