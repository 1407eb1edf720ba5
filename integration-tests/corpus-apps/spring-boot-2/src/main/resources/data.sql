insert into greeting (name) values ('Ada');
insert into greeting (name) values ('Grace');
